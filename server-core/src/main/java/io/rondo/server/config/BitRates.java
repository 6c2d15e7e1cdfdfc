package io.rondo.server.config;

import io.rondo.scheduler.admission.AdmissionConfig;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/**
 * Bit rates as network people write them: {@code 1G}, {@code 100M}, {@code 2.5G}, {@code 800K} or
 * plain bits, with an optional {@code bit/s} or {@code bps}. The suffixes are decimal, as link
 * rates are: {@code 1G} is 10^9 bits a second, not 2^30.
 */
public final class BitRates {

    /** The word for no limit. */
    public static final String UNLIMITED = "unlimited";

    private BitRates() {
    }

    /**
     * Bits a second; {@link AdmissionConfig#UNLIMITED_NETWORK} for {@code unlimited}.
     *
     * @param text the rate as written
     * @param what the setting's name, for the message if it is not a rate
     * @throws IllegalArgumentException naming {@code what} and saying what a rate looks like
     */
    public static long parse(String text, String what) {
        String value = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        if (value.equals(UNLIMITED)) {
            return AdmissionConfig.UNLIMITED_NETWORK;
        }
        value = value.replaceFirst("\\s*(bit/s|bps|b/s)$", "");
        double unit = 1;
        if (!value.isEmpty()) {
            switch (value.charAt(value.length() - 1)) {
                case 'k' -> unit = 1e3;
                case 'm' -> unit = 1e6;
                case 'g' -> unit = 1e9;
                case 't' -> unit = 1e12;
                default -> unit = 1;
            }
        }
        String digits = unit == 1 ? value : value.substring(0, value.length() - 1).trim();
        try {
            double bits = Double.parseDouble(digits) * unit;
            if (!(bits >= 1) || bits >= AdmissionConfig.UNLIMITED_NETWORK || digits.matches(".*[a-z].*")) {
                throw new NumberFormatException();
            }
            return Math.round(bits);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " must be a rate in bits a second like 100M, 1G or 2.5G "
                + "(K, M, G: powers of 1000), or unlimited; was '" + text + "'");
        }
    }

    /** A rate for people: {@code 1 Gbit/s}, {@code 2.5 Mbit/s}, {@code unlimited}. */
    public static String format(long bitsPerSecond) {
        if (bitsPerSecond == AdmissionConfig.UNLIMITED_NETWORK) {
            return UNLIMITED;
        }
        String[] units = {"bit/s", "kbit/s", "Mbit/s", "Gbit/s", "Tbit/s"};
        double value = bitsPerSecond;
        int unit = 0;
        while (value >= 1000 && unit < units.length - 1) {
            value /= 1000;
            unit++;
        }
        return new BigDecimal(value).round(new MathContext(4)).stripTrailingZeros().toPlainString() + " " + units[unit];
    }
}
