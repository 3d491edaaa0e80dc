package io.flashsale.stores.admission;

/** The state of a purchase's hold in {@code {sale:ID}:holds}; the names are what the Lua scripts write. */
public enum HoldState {
    /** A unit is taken from the Redis stock for the purchase. */
    HELD,
    /** The unit went back to the Redis stock (release.lua), once. */
    RELEASED,
    /**
     * MySQL refused the order as sold out: Redis had admitted a unit that did not exist. The stock
     * was left alone (void.lua).
     */
    VOID
}
