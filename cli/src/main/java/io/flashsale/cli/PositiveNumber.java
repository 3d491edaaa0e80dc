package io.flashsale.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** An option or parameter that is a whole number above zero: units, seconds. */
final class PositiveNumber implements ITypeConverter<Integer> {

    @Override
    public Integer convert(String value) {
        try {
            int number = Integer.parseInt(value);
            if (number > 0) {
                return number;
            }
        } catch (NumberFormatException notANumber) {
            // refused below
        }
        throw new TypeConversionException("'" + value + "' is not a positive whole number");
    }
}
