package io.flashsale.e2e;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a {@link RunningSystemTest}: its system starts with Temporal and the api but no worker; the
 * test starts (and kills) every worker itself.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@interface OwnWorkers {}
