package io.kvledger.infrastructure.view;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** Left-aligned columns, each as wide as its widest cell, two spaces apart; numbers right-aligned. */
final class TextTable {

    private final List<String> headers;
    private final boolean[] numeric;
    private final List<String[]> rows = new ArrayList<>();

    /** A header starting with {@code >} is a right-aligned (numeric) column; the mark is not printed. */
    TextTable(String... headers) {
        this.headers = new ArrayList<>(headers.length);
        this.numeric = new boolean[headers.length];
        for (int i = 0; i < headers.length; i++) {
            numeric[i] = headers[i].startsWith(">");
            this.headers.add(numeric[i] ? headers[i].substring(1) : headers[i]);
        }
    }

    void row(Object... cells) {
        String[] text = new String[cells.length];
        for (int i = 0; i < cells.length; i++) {
            text[i] = String.valueOf(cells[i]);
        }
        rows.add(text);
    }

    void print(PrintWriter out, String indent) {
        int[] widths = new int[headers.size()];
        for (int i = 0; i < widths.length; i++) {
            widths[i] = headers.get(i).length();
            for (String[] row : rows) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        line(out, indent, headers.toArray(String[]::new), widths);
        for (String[] row : rows) {
            line(out, indent, row, widths);
        }
    }

    private void line(PrintWriter out, String indent, String[] cells, int[] widths) {
        StringBuilder text = new StringBuilder(indent);
        for (int i = 0; i < cells.length; i++) {
            boolean last = i == cells.length - 1;
            String pad = " ".repeat(widths[i] - cells[i].length());
            text.append(numeric[i] ? pad + cells[i] : cells[i] + (last ? "" : pad));
            if (!last) {
                text.append("  ");
            }
        }
        out.println(text.toString().stripTrailing());
    }
}
