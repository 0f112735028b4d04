package io.kvledger.application.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class JobIdSetTest {

    @Test
    void idsEndingOutOfOrderMergeIntoOneRange() {
        JobIdSet ended = new JobIdSet();

        for (long id : new long[] {0, 2, 1, 5, 4, 3}) {
            ended.add(id);
        }

        assertEquals(1, ended.ranges());
        assertTrue(ended.contains(0) && ended.contains(5));
        assertFalse(ended.contains(6));
    }

    @Test
    void aMillionJobsEndedInOrderTakeOneRange() {
        JobIdSet ended = new JobIdSet();

        for (long id = 0; id < 1_000_000; id++) {
            ended.add(id);
        }

        assertEquals(1, ended.ranges());
    }

    @Test
    void removingAnIdSplitsItsRange() {
        JobIdSet ended = new JobIdSet();
        for (long id = 10; id <= 20; id++) {
            ended.add(id);
        }

        ended.remove(15);
        ended.remove(10);
        ended.remove(99);

        assertEquals(2, ended.ranges());
        assertFalse(ended.contains(15));
        assertFalse(ended.contains(10));
        assertTrue(ended.contains(11) && ended.contains(14) && ended.contains(16) && ended.contains(20));
    }
}
