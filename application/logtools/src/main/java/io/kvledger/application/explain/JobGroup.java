package io.kvledger.application.explain;

import io.kvledger.application.explain.StoreExplanation.Slice;
import java.util.List;

/**
 * One KV cache group's part of a grouped job (contract 7.4 for a store, 7.6 for a load): the group, its
 * figures before the job, what the job holds of it and what the group's rules give.
 *
 * @param group         {@code g}
 * @param kind          {@code FULL} or {@code SLIDING_WINDOW}
 * @param slidingWindow {@code w_g}; {@code null} for a full group
 * @param chunkTokens   {@code C_g}
 * @param cursor        {@code s_g} before the job
 * @param storable      for a store, {@code S_g}; {@code null} for a load
 * @param table         {@code T_g} ({@code null} entries are null blocks); for a load, after its allocation
 * @param firstBlock    for a load, {@code p_g = max(L/B_g, first_g(N))}, the first position written; else {@code null}
 * @param endBlock      for a load, {@code e_g*F}, the position past the last written; else {@code null}
 * @param job           what the log's job holds of this group
 * @param expected      what the group's rules give
 */
public record JobGroup(int group, String kind, int blockSize, Integer slidingWindow, boolean eagle, int chunkTokens,
                       int cursor, Integer storable, List<Integer> table, Integer firstBlock, Integer endBlock,
                       Slice job, Slice expected) {
}
