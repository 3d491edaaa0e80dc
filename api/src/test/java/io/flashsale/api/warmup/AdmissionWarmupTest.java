package io.flashsale.api.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import org.junit.jupiter.api.Test;

class AdmissionWarmupTest {

    /** A warm-up request that gets no answer is counted, not thrown: the api still starts. */
    @Test
    void aRequestWithoutAnAnswerIsCountedAndDoesNotStopTheWarmUp() throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        HttpRequest request = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + closed + "/api/sales/x/purchases"))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();

        assertThat(AdmissionWarmup.statusOf(HttpClient.newHttpClient(), request))
                .isEqualTo(AdmissionWarmup.NO_ANSWER);
    }
}
