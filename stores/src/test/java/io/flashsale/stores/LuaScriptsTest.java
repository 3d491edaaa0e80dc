package io.flashsale.stores;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LuaScriptsTest {

    /** The shebang makes a cluster node refuse keys outside the script's slot (SaleSlotsOnClusterIT). */
    @Test
    void everyScriptStartsWithTheShebang() {
        assertThat(LuaScripts.load("admit", Long.class).getScriptAsString()).startsWith("#!lua\n-- admit.lua");
        assertThat(LuaScripts.limitedAdmit().getScriptAsString()).startsWith("#!lua\nlocal function rate_limit");
    }
}
