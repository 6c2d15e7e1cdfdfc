package io.rondo.server.cluster.agent;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One line of HAProxy's agent check (its configuration manual, {@code agent-check}): words
 * separated by spaces, tabs or commas, in any order, the last of a kind winning, and after a
 * {@code #} a description. Rondo's agent writes every kind, so that each check undoes what the
 * one before set ({@code ready} undoes {@code drain}, {@code up} undoes {@code down}):
 * {@code up ready 73% maxconn:40}, {@code up drain 0% maxconn:12 #full: ...},
 * {@code down ready 100% #disk sda fails: ...}. A node reads its peers' lines with {@link #parse}.
 *
 * @param health        the operating state, or null where the line gives none
 * @param admin         the administrative state, or null where the line gives none
 * @param weightPercent the weight, in percent of the weight HAProxy's configuration gives the server;
 *                      {@link #UNSAID} where the line gives none
 * @param maxconn       the most connections HAProxy may hold to the server; {@link #UNSAID} where the
 *                      line gives none
 * @param reason        the description after {@code #}, or null
 */
public record AgentLine(Health health, Admin admin, int weightPercent, int maxconn, String reason) {

    /** A weight or a maxconn the line does not give. */
    public static final int UNSAID = -1;

    /** The most characters a line may have: HAProxy reads the line into its check buffer. */
    public static final int MAX_CHARS = 1024;

    /** The operating state: {@code up}, or down for one of three reasons. */
    public enum Health {
        /** Serving, if HAProxy's own health check agrees. */
        UP,
        /** Down, unexpectedly (a failed disk). */
        DOWN,
        /** Down: it fails a check of its own. */
        FAIL,
        /** Down, on purpose. */
        STOPPED
    }

    /** The administrative state. */
    public enum Admin {
        /** Takes new connections. */
        READY,
        /** Takes no new connections but those of persistence; those it holds go on. */
        DRAIN,
        /** Takes no connection at all, and HAProxy stops checking its health. */
        MAINT
    }

    /** @throws IllegalArgumentException for a negative weight or maxconn other than {@link #UNSAID} */
    public AgentLine {
        if (weightPercent < UNSAID || maxconn < UNSAID) {
            throw new IllegalArgumentException("a weight and a maxconn are at least 0, or UNSAID; were "
                + weightPercent + " and " + maxconn);
        }
        reason = reason == null || reason.isBlank() ? null : reason.replaceAll("[\\r\\n]+", " ").strip();
    }

    /**
     * Reads a line as HAProxy does, up to its first CR or LF.
     *
     * @throws IllegalArgumentException for a word HAProxy does not know, or a malformed weight or maxconn
     */
    public static AgentLine parse(String line) {
        int end = 0;
        while (end < line.length() && line.charAt(end) != '\r' && line.charAt(end) != '\n') {
            end++;
        }
        String text = line.substring(0, end);
        int sharp = text.indexOf('#');
        String reason = sharp < 0 ? null : text.substring(sharp + 1);
        Health health = null;
        Admin admin = null;
        int weight = UNSAID;
        int maxconn = UNSAID;
        for (String word : (sharp < 0 ? text : text.substring(0, sharp)).split("[ \\t,]+")) {
            String lower = word.toLowerCase(Locale.ROOT);
            if (lower.isEmpty()) {
                continue;
            }
            switch (lower) {
                case "up" -> health = Health.UP;
                case "down" -> health = Health.DOWN;
                case "fail" -> health = Health.FAIL;
                case "stopped" -> health = Health.STOPPED;
                case "ready" -> admin = Admin.READY;
                case "drain" -> admin = Admin.DRAIN;
                case "maint" -> admin = Admin.MAINT;
                default -> {
                    if (lower.endsWith("%")) {
                        weight = number(word, lower.substring(0, lower.length() - 1));
                    } else if (lower.startsWith("maxconn:")) {
                        maxconn = number(word, lower.substring("maxconn:".length()));
                    } else {
                        throw new IllegalArgumentException("'" + word + "' is no word of HAProxy's agent check: "
                            + "a weight N%, maxconn:N, up, down, fail, stopped, ready, drain or maint");
                    }
                }
            }
        }
        return new AgentLine(health, admin, weight, maxconn, reason);
    }

    private static int number(String word, String digits) {
        if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9') || digits.length() > 9) {
            throw new IllegalArgumentException("'" + word + "' has no whole number where HAProxy reads one");
        }
        return Integer.parseInt(digits);
    }

    /** The line as the agent writes it, without its line end; a long reason is cut to {@link #MAX_CHARS}. */
    public String format() {
        List<String> words = new ArrayList<>(5);
        if (health != null) {
            words.add(health.name().toLowerCase(Locale.ROOT));
        }
        if (admin != null) {
            words.add(admin.name().toLowerCase(Locale.ROOT));
        }
        if (weightPercent != UNSAID) {
            words.add(weightPercent + "%");
        }
        if (maxconn != UNSAID) {
            words.add("maxconn:" + maxconn);
        }
        if (reason != null) {
            words.add("#" + reason);
        }
        String line = String.join(" ", words);
        return line.length() <= MAX_CHARS ? line : line.substring(0, MAX_CHARS);
    }

    /**
     * Whether HAProxy sends the node new connections on this line: not down, not drained or in
     * maintenance, and not of weight 0. What the line does not say counts as allowing.
     */
    public boolean admits() {
        return (health == null || health == Health.UP) && (admin == null || admin == Admin.READY)
            && weightPercent != 0;
    }

    @Override
    public String toString() {
        return format();
    }
}
