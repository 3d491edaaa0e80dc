package io.flashsale.stores.audit;

/**
 * The repair refused: the sale ended, every purchase was final, and its Redis side was archived.
 * MySQL alone holds the sale now; loading it into Redis again would reopen nothing and cost memory.
 */
public class SaleArchivedException extends RuntimeException {

    public SaleArchivedException(String saleId) {
        super("sale " + saleId + " is archived in Redis; MySQL holds its record");
    }
}
