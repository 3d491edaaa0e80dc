package io.flashsale.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.testing.ApiIntegrationTest;
import org.apache.catalina.connector.Connector;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.web.embedded.tomcat.TomcatWebServer;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;

/**
 * The api listens with a deep backlog: a sale opens with a burst of new connections, and one the
 * kernel cannot queue is retried by the client only after a second.
 */
class AcceptBacklogIT extends ApiIntegrationTest {

    @Autowired
    ServletWebServerApplicationContext context;

    @Test
    void theListenBacklogHoldsABurstOfNewConnections() {
        Connector connector =
                ((TomcatWebServer) context.getWebServer()).getTomcat().getConnector();

        assertThat(connector.getProperty("acceptCount")).isEqualTo(4096);
    }
}
