package io.flashsale.api.problem;

import static org.hamcrest.Matchers.endsWith;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import org.junit.jupiter.api.Test;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

class ApiExceptionHandlerTest {

    private final MockMvc mvc = MockMvcBuilders.standaloneSetup(new FailingController())
            .setControllerAdvice(new ApiExceptionHandler())
            .build();

    @Test
    void answersARedisCommandThatTimedOutWith503AndRetryAfter() throws Exception {
        mvc.perform(get("/redis-timed-out"))
                .andExpect(status().isServiceUnavailable())
                .andExpect(header().string("Retry-After", "1"))
                .andExpect(jsonPath("$.type").value(endsWith("/unavailable")));
    }

    @Test
    void answersAnUnreachableRedisWith503AndRetryAfter() throws Exception {
        mvc.perform(get("/redis-unreachable"))
                .andExpect(status().isServiceUnavailable())
                .andExpect(header().string("Retry-After", "1"));
    }

    @Test
    void answersARedisConnectionResetMidCommandWith503() throws Exception {
        mvc.perform(get("/redis-connection-reset"))
                .andExpect(status().isServiceUnavailable())
                .andExpect(header().string("Retry-After", "1"))
                .andExpect(jsonPath("$.type").value(endsWith("/unavailable")));
    }

    @Test
    void answersAnyOtherRedisErrorWith500() throws Exception {
        mvc.perform(get("/redis-refused-a-script"))
                .andExpect(status().isInternalServerError())
                .andExpect(jsonPath("$.type").value(endsWith("/internal")));
    }

    @Test
    void answersMySqlUnreachableOrLostMidStatementWith503() throws Exception {
        for (String path : new String[] {"/mysql-no-connection", "/mysql-connection-lost", "/mysql-rollback-failed"}) {
            mvc.perform(get(path))
                    .andExpect(status().isServiceUnavailable())
                    .andExpect(header().string("Retry-After", "1"))
                    .andExpect(jsonPath("$.type").value(endsWith("/unavailable")));
        }
    }

    @RestController
    static class FailingController {

        @GetMapping("/mysql-no-connection")
        String noConnection() {
            throw new org.springframework.transaction.CannotCreateTransactionException(
                    "Could not open JDBC Connection for transaction");
        }

        @GetMapping("/mysql-rollback-failed")
        String rollbackFailed() {
            throw new org.springframework.transaction.TransactionSystemException("JDBC rollback failed");
        }

        @GetMapping("/mysql-connection-lost")
        String connectionLost() {
            throw new org.springframework.dao.RecoverableDataAccessException("Communications link failure");
        }

        @GetMapping("/redis-connection-reset")
        String connectionReset() {
            throw new RedisSystemException(
                    "Redis exception",
                    new io.lettuce.core.RedisException(new java.net.SocketException("Connection reset")));
        }

        @GetMapping("/redis-refused-a-script")
        String refusedAScript() {
            throw new RedisSystemException(
                    "Redis exception", new io.lettuce.core.RedisCommandExecutionException("ERR script refused"));
        }

        @GetMapping("/redis-timed-out")
        String timedOut() {
            throw new QueryTimeoutException("Redis command timed out");
        }

        @GetMapping("/redis-unreachable")
        String unreachable() {
            throw new RedisConnectionFailureException("Unable to connect to Redis");
        }
    }
}
