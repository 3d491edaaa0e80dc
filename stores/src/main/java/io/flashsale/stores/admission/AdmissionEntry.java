package io.flashsale.stores.admission;

/** One admitted purchase waiting in a sale's admission stream for its workflow. */
public record AdmissionEntry(String entryId, String saleId, String purchaseId, String userId, long payTimeoutSeconds) {}
