package io.rondo.benchmarks.preset.live;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class AdminLiveTest {

    private final ObjectMapper mapper = new ObjectMapper();

    @Test
    void theServersTotalIsTheFieldNearestTheRootNotARecordingsOwn() throws Exception {
        JsonNode answer = mapper.readTree("{\"recordings\":[{\"name\":\"a\",\"lateWriteRounds\":1},"
            + "{\"name\":\"b\",\"lateWriteRounds\":2}],\"totals\":{\"lateWriteRounds\":3}}");

        assertEquals(3, AdminLive.shallowest(answer, AdminLive.LATE_WRITE_ROUNDS).asLong());
    }

    @Test
    void anAnswerWithoutTheFieldHasNone() throws Exception {
        assertNull(AdminLive.shallowest(mapper.readTree("{\"recordings\":[{\"lateWriteRounds\":\"x\"}]}"),
            AdminLive.LATE_WRITE_ROUNDS));
    }
}
