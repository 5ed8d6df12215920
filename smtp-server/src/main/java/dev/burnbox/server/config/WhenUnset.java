package dev.burnbox.server.config;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * What an option without a fixed {@code defaultValue} means when it is not given ("every
 * interface", "a quarter of the heap"): shown as its default in {@code --help}, {@code
 * --print-settings} and the README's table.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface WhenUnset {
  /** The default, in words. */
  String value();
}
