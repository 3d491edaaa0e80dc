package io.flashsale.api;

/**
 * The check behind the ids a request carries on every purchase (the sale id, the Idempotency-Key, the
 * token's subject): each is {@code [A-Za-z0-9<punctuation>]{1,maxLength}}, tested by a scan of its
 * characters rather than a regular expression, which the profile of a sold-out burst found costly.
 */
public final class AsciiIds {

    private AsciiIds() {}

    /**
     * Whether {@code value} is 1 to {@code maxLength} characters, each an ASCII letter, an ASCII digit
     * or one of {@code punctuation}.
     */
    public static boolean lettersDigitsAnd(String value, int maxLength, String punctuation) {
        int length = value.length();
        if (length == 0 || length > maxLength) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            boolean allowed = (c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || punctuation.indexOf(c) >= 0;
            if (!allowed) {
                return false;
            }
        }
        return true;
    }
}
