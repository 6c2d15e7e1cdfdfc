package io.rondo.server.cli.admin;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Rows of text under a header, each column as wide as its widest cell: words to the left,
 * numbers to the right, two spaces between columns and none after the last.
 */
final class Table {

    private final List<String> headers = new ArrayList<>();
    private final List<Boolean> right = new ArrayList<>();
    private final List<String[]> rows = new ArrayList<>();

    /** Adds a column of words. */
    Table left(String header) {
        headers.add(header);
        right.add(false);
        return this;
    }

    /** Adds a column of numbers. */
    Table right(String header) {
        headers.add(header);
        right.add(true);
        return this;
    }

    /** Adds a row, a cell per column in order; null prints as {@code -}. */
    Table row(Object... cells) {
        String[] row = new String[cells.length];
        for (int i = 0; i < cells.length; i++) {
            row[i] = cells[i] == null ? "-" : cells[i].toString();
        }
        rows.add(row);
        return this;
    }

    void print(PrintWriter out) {
        int[] widths = new int[headers.size()];
        for (int i = 0; i < widths.length; i++) {
            widths[i] = headers.get(i).length();
            for (String[] row : rows) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        out.println(line(headers.toArray(String[]::new), widths));
        for (String[] row : rows) {
            out.println(line(row, widths));
        }
    }

    private String line(String[] cells, int[] widths) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            if (i > 0) {
                line.append("  ");
            }
            String pad = " ".repeat(widths[i] - cells[i].length());
            boolean last = i == cells.length - 1;
            if (right.get(i)) {
                line.append(pad).append(cells[i]);
            } else {
                line.append(cells[i]).append(last ? "" : pad);
            }
        }
        return line.toString();
    }
}
