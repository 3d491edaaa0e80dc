package io.flashsale.stores.sale;

/** What an operator can change on a live sale; the names are what {@code sale_changes.kind} holds. */
public enum SaleChangeKind {
    /** The sale closed now: admissions stop, orders already written stay payable until their deadlines. */
    CLOSE,
    /** The sale's window moved (not into the past, not once closed). */
    MOVE,
    /** Units added: total and available grew. */
    RESTOCK,
    /** Unsold, unheld units taken off sale: total and available shrank. */
    WITHDRAW
}
