package io.flashsale.e2e;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Settings ({@code NAME=value}) every process of a {@link RunningSystemTest}'s system gets on top. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@interface SystemEnvironment {
    String[] value();
}
