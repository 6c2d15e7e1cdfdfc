package io.rondo.content.media.matroska;

import java.util.Arrays;

/** The kept blocks of the round being written: where each lies in the span the remuxer read, and its relative time. */
final class KeptBlocks {

    private int size;
    private int[] from = new int[256];
    private int[] to = new int[256];
    private int[] time = new int[256];

    void clear() {
        size = 0;
    }

    int size() {
        return size;
    }

    void add(int blockFrom, int blockTo, int relative) {
        if (size == from.length) {
            from = Arrays.copyOf(from, size * 2);
            to = Arrays.copyOf(to, size * 2);
            time = Arrays.copyOf(time, size * 2);
        }
        from[size] = blockFrom;
        to[size] = blockTo;
        time[size] = relative;
        size++;
    }

    int from(int i) {
        return from[i];
    }

    int to(int i) {
        return to[i];
    }

    int time(int i) {
        return time[i];
    }

    void swap(int i, int j) {
        int f = from[i];
        int t = to[i];
        int r = time[i];
        from[i] = from[j];
        to[i] = to[j];
        time[i] = time[j];
        from[j] = f;
        to[j] = t;
        time[j] = r;
    }
}
