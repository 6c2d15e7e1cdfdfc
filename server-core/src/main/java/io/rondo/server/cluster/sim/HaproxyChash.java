package io.rondo.server.cluster.sim;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * HAProxy 2.6's consistent hashing, {@code balance uri} with {@code hash-type consistent}, as
 * {@code src/lb_chash.c} and {@code src/backend.c} compute it, so that the simulation compares
 * Rondo's placement with what HAProxy alone would do.
 *
 * <p>Each server of weight 1 (the default) puts {@code BE_WEIGHT_SCALE} = 16 points on a 32-bit
 * ring, point {@code j} of the server with id {@code puid} at {@code full_hash(puid * 4096 + j)}
 * (Bob Jenkins' full-avalanche integer hash times 3221225473). A request's key is the sdbm hash
 * of its URI up to the {@code ?} passed through the same {@code full_hash}: with no function
 * named, {@code hash-type consistent} means sdbm with the {@code avalanche} modifier
 * ({@code cfgparse-listen.c}). The request goes to the server of the point nearest the key on
 * either side, the earlier one on a tie ({@code chash_get_server_hash}). With
 * {@code hash-balance-factor} the lookup walks clockwise past servers whose served count has
 * reached their share of {@code ceil((served + 1) * factor / 100)} ({@code chash_server_is_eligible},
 * Mirrokni, Thorup and Zadimoghaddam's bounded loads).
 *
 * <p>A server marked down takes its points out of the ring, so only its keys move; a server added
 * with the next id adds 16 points and takes keys only for itself. Servers keep their ids: HAProxy
 * numbers servers in the order of the configuration unless each has an {@code id}, so removing a
 * server from the file and reloading would renumber (and move the points of) every later one.
 */
public final class HaproxyChash {

    /** Points per unit of weight: {@code BE_WEIGHT_SCALE} in {@code backend-t.h}. */
    private static final int POINTS_PER_SERVER = 16;
    private static final int SRV_EWGHT_RANGE = 256 * POINTS_PER_SERVER;

    private final int[] puids;
    private final boolean[] up;
    private final int[] keys;
    private final int[] servers;
    private final int[] cumulativeWeight;
    private final int totalWeight;

    private HaproxyChash(int[] puids, boolean[] up) {
        this.puids = puids;
        this.up = up;
        List<long[]> points = new ArrayList<>();
        cumulativeWeight = new int[puids.length];
        int weight = 0;
        for (int s = 0; s < puids.length; s++) {
            if (!up[s]) {
                continue;
            }
            cumulativeWeight[s] = weight;
            weight += POINTS_PER_SERVER;
            for (int j = 0; j < POINTS_PER_SERVER; j++) {
                points.add(new long[] {Integer.toUnsignedLong(fullHash(puids[s] * SRV_EWGHT_RANGE + j)), s});
            }
        }
        totalWeight = weight;
        // Equal keys stay in insertion order (server, then point), as eb32_insert keeps duplicates.
        points.sort((a, b) -> Long.compare(a[0], b[0]));
        keys = new int[points.size()];
        servers = new int[points.size()];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = (int) points.get(i)[0];
            servers[i] = (int) points.get(i)[1];
        }
    }

    /** {@code count} servers of weight 1, all up, with ids 1 to {@code count} in that order (indices 0 on). */
    public static HaproxyChash ofServers(int count) {
        int[] ids = new int[count];
        boolean[] up = new boolean[count];
        for (int s = 0; s < count; s++) {
            ids[s] = s + 1;
            up[s] = true;
        }
        return new HaproxyChash(ids, up);
    }

    /** This ring with one more server, of id {@code puid}; its index is {@link #serverCount()}. */
    public HaproxyChash withServerAdded(int puid) {
        if (Arrays.stream(puids).anyMatch(id -> id == puid)) {
            throw new IllegalArgumentException("server id " + puid + " is taken");
        }
        int[] ids = Arrays.copyOf(puids, puids.length + 1);
        ids[puids.length] = puid;
        boolean[] ups = Arrays.copyOf(up, up.length + 1);
        ups[up.length] = true;
        return new HaproxyChash(ids, ups);
    }

    /** This ring with server {@code server} down: its points out of the ring. */
    public HaproxyChash withServerDown(int server) {
        boolean[] ups = up.clone();
        ups[server] = false;
        return new HaproxyChash(puids, ups);
    }

    /** Servers configured, up or down. */
    public int serverCount() {
        return puids.length;
    }

    /** The server for a request whose key is {@code hash}, or -1 if no server is up. */
    public int server(int hash) {
        int point = nearestPoint(hash);
        return point < 0 ? -1 : servers[point];
    }

    /**
     * The server for {@code hash} under {@code hash-balance-factor factor}: the nearest point's
     * server if it serves fewer than its share, else the next eligible one clockwise.
     *
     * @param served each server's requests in progress
     * @param totalServed the backend's requests in progress
     */
    public int server(int hash, int factor, int[] served, int totalServed) {
        int point = nearestPoint(hash);
        if (point < 0) {
            return -1;
        }
        int loop = 0;
        while (!eligible(servers[point], factor, served, totalServed)) {
            point++;
            if (point == keys.length) {
                point = 0;
                if (++loop > 1) {
                    break;
                }
            }
        }
        return servers[point];
    }

    private boolean eligible(int server, int factor, int[] served, int totalServed) {
        long totSlots = ((totalServed + 1L) * factor + 99) / 100;
        long slotsPerWeight = totSlots / totalWeight;
        long remainder = totSlots % totalWeight;
        long slots = POINTS_PER_SERVER * slotsPerWeight;
        int cumulative = cumulativeWeight[server];
        slots += (cumulative + POINTS_PER_SERVER) * remainder / totalWeight - cumulative * remainder / totalWeight;
        return served[server] < Math.max(slots, 1);
    }

    private int nearestPoint(int hash) {
        if (keys.length == 0) {
            return -1;
        }
        int next = lookupGe(hash);
        if (next == keys.length) {
            next = 0;
        }
        int prev = next == 0 ? keys.length - 1 : next - 1;
        int dp = hash - keys[prev];
        int dn = keys[next] - hash;
        return Integer.compareUnsigned(dp, dn) <= 0 ? prev : next;
    }

    /** The first point whose key is at least {@code hash}, unsigned; {@code keys.length} if none. */
    private int lookupGe(int hash) {
        int low = 0;
        int high = keys.length;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (Integer.compareUnsigned(keys[mid], hash) < 0) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    /** {@code full_hash} of HAProxy's {@code intops.h}. */
    public static int fullHash(int value) {
        int a = value;
        a = (a + 0x7ed55d16) + (a << 12);
        a = (a ^ 0xc761c23c) ^ (a >>> 19);
        a = (a + 0x165667b1) + (a << 5);
        a = (a + 0xd3a2646c) ^ (a << 9);
        a = (a + 0xfd7046c5) + (a << 3);
        a = (a ^ 0xb55a4f09) ^ (a >>> 16);
        return a * (int) 3221225473L;
    }

    /**
     * The key {@code balance uri} looks up under {@code hash-type consistent}: sdbm of the URI's
     * bytes before any {@code ?}, then {@code full_hash} (the avalanche modifier).
     */
    public static int uriKey(String uri) {
        byte[] bytes = uri.getBytes(StandardCharsets.UTF_8);
        int hash = 0;
        for (byte b : bytes) {
            if (b == '?') {
                break;
            }
            hash = (b & 0xff) + (hash << 6) + (hash << 16) - hash;
        }
        return fullHash(hash);
    }
}
