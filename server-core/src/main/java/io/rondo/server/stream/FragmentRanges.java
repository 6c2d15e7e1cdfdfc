package io.rondo.server.stream;

import io.rondo.content.model.Fragment;

import java.util.List;

/**
 * Which fragments a byte range of the stored copy is: an HLS part or segment GET is answered from a
 * session's reads only if it starts at a fragment's first byte and ends at one's last.
 */
final class FragmentRanges {

    private FragmentRanges() {
    }

    /** The fragment whose first byte is at {@code offset} of the stored copy, or -1 if none starts there. */
    static int startingAt(List<Fragment> fragments, long offset) {
        int low = 0;
        int high = fragments.size() - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            long at = fragments.get(mid).offset();
            if (at == offset) {
                return mid;
            }
            if (at < offset) {
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        return -1;
    }

    /**
     * The fragment from {@code first} on whose last byte is just before {@code end}, or -1 if the
     * range ends inside a fragment or past the last.
     */
    static int endingAt(List<Fragment> fragments, int first, long end) {
        for (int i = first; i < fragments.size(); i++) {
            Fragment fragment = fragments.get(i);
            long fragmentEnd = fragment.offset() + fragment.length();
            if (fragmentEnd == end) {
                return i;
            }
            if (fragmentEnd > end) {
                return -1;
            }
        }
        return -1;
    }
}
