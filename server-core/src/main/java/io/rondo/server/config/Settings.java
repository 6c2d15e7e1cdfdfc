package io.rondo.server.config;

/** The checks every settings record makes of its values, with the key's name in the message. */
final class Settings {

    private Settings() {
    }

    static void positive(long value, String key) {
        if (value <= 0) {
            throw new IllegalArgumentException(key + " must be positive, was " + value);
        }
    }

    static void waterMarks(int low, int high, String section) {
        positive(low, section + ".writeBufferLow");
        if (high < low) {
            throw new IllegalArgumentException(section + ".writeBufferHigh (" + high + " bytes) must be at least "
                + section + ".writeBufferLow (" + low + " bytes)");
        }
    }
}
