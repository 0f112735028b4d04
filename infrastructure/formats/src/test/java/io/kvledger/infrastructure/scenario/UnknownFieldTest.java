package io.kvledger.infrastructure.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Issue 31: which known field an unknown one likely misspells, and that a scenario names each unknown name once. */
class UnknownFieldTest {

    @Test
    void aCloseNameOrTheSameNameInAnotherCaseIsSuggestedAndAFarOneIsNot() {
        List<String> completeTransfer = List.of("jobId", "success");

        assertEquals(Optional.of("success"), UnknownField.closest("sucess", completeTransfer));
        assertEquals(Optional.of("success"), UnknownField.closest("succes", completeTransfer));
        assertEquals(Optional.of("jobId"), UnknownField.closest("JobID", completeTransfer));
        assertEquals(Optional.of("jobId"), UnknownField.closest("jobid", completeTransfer));
        assertEquals(Optional.empty(), UnknownField.closest("priority", completeTransfer));
        assertEquals(Optional.empty(), UnknownField.closest("ok", completeTransfer));
        assertEquals(Optional.of("gpuHitTokens"), UnknownField.closest("gpuHitToken", List.of("requestId", "gpuHitTokens")));
    }

    @Test
    void aScenarioNamesEachUnknownFieldNameOnceAtItsFirstLine() throws Exception {
        String scenario = """
                {"cmd": "RegisterRequest", "requestId": "r", "promptTokens": [1], "priority": 1}
                {"cmd": "CompleteTransfer", "jobId": 0, "sucess": false}
                {"cmd": "AbortRequest", "requestId": "r", "priority": 2}
                {"cmd": "ResetCache", "sucess": true}
                {"cmd": "RegisterRequest", "requestId": "q", "promptTokens": [1], "maxOffloadTokens": 4, "maxLoadTokens": 0, "skipReadingPrefixCache": true}
                """;
        ScenarioReader reader = new ScenarioReader(new ByteArrayInputStream(scenario.getBytes(StandardCharsets.UTF_8)));
        List<String> said = new ArrayList<>();
        reader.onUnknownField(field -> said.add(field.message()));

        while (reader.next() != null) {
            // read every line
        }

        assertEquals(List.of("line 1: RegisterRequest has no field \"priority\" (ignored)",
                "line 2: CompleteTransfer has no field \"sucess\" (ignored; did you mean \"success\"?)"), said);
    }
}
