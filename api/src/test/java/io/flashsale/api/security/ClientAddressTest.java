package io.flashsale.api.security;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ClientAddressTest {

    @Test
    void keepsIpv4AndIpv6Text() {
        assertThat(ClientAddress.normalized("203.0.113.9")).isEqualTo("203.0.113.9");
        assertThat(ClientAddress.normalized("2001:DB8::1")).isEqualTo("2001:db8::1");
        assertThat(ClientAddress.normalized("fe80::1%eth0")).isEqualTo("fe80::1");
    }

    @Test
    void putsAnythingElseIntoOneSharedBucket() {
        for (String junk : new String[] {null, "", "x}:stock", "{sale:x}", "evil.example", "1.2.3.4, 5.6.7.8"}) {
            assertThat(ClientAddress.normalized(junk)).as(junk).isEqualTo(ClientAddress.UNPARSABLE);
        }
    }
}
