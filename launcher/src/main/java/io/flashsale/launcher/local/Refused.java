package io.flashsale.launcher.local;

/** Why a local command stops: printed as {@code flashsale: MESSAGE}, exit status 1. */
final class Refused extends RuntimeException {

    Refused(String message) {
        super(message);
    }
}
