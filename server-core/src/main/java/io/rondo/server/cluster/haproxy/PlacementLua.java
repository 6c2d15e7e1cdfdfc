package io.rondo.server.cluster.haproxy;

import java.util.List;

/**
 * The text of {@code rondo-placement.lua}: HAProxy's own computation of an object's owners (an HLS
 * playlist's, {@code NAME.m3u8}, are {@code NAME}'s, whose parts its session serves). It is
 * {@link io.rondo.content.cluster.Rendezvous} again, in Lua over the node list the configuration was written for,
 * with HAProxy's {@code xxh64} converter as the hash, so HAProxy and the nodes agree on every object without
 * either asking the other.
 */
final class PlacementLua {

    /** The action's name: the frontend runs it as {@code http-request lua.rondo_placement}. */
    static final String ACTION = "rondo_placement";

    private PlacementLua() {
    }

    /**
     * The Lua file for these nodes (in name order) and this many replicas (at most the number of nodes).
     * It reads {@code txn.rondo_object} and sets {@code txn.rondo_backend} to its owner set's backend.
     */
    static String text(List<String> sortedNames, int replicas) {
        StringBuilder names = new StringBuilder();
        for (String name : sortedNames) {
            names.append(names.isEmpty() ? "" : ", ").append('"').append(name).append('"');
        }
        return """
            -- rondo-placement.lua, written by `rondo cluster haproxy-config` beside haproxy.cfg: do not edit.
            --
            -- Which nodes hold an object: the REPLICAS nodes of highest rendezvous weight, the weight being XXH64
            -- (seed 0) of the node's name followed by the object's name, compared as unsigned 64-bit numbers, a tie
            -- going to the lower name. The nodes place objects by the same rule (io.rondo.content.cluster.Rendezvous),
            -- so HAProxy knows where an object is without asking any node and without a map to keep current. A node
            -- joining or leaving rewrites this file and haproxy.cfg; HAProxy is then reloaded.

            local nodes = { NODES } -- in name order
            local replicas = REPLICAS

            -- Whether node i of weight wi goes before node j of weight wj: the higher weight (unsigned), then the
            -- lower name.
            local function before(wi, i, wj, j)
              if wi == wj then
                return i < j
              end
              return math.ult(wj, wi)
            end

            -- Sets txn.rondo_backend to the backend of txn.rondo_object's owners: "owners_" and their names in name
            -- order, joined by "_", one backend per owner set.
            core.register_action("ACTION", { "http-req" }, function(txn)
              local object = txn:get_var("txn.rondo_object")
              if object == nil then
                return
              end
              -- An HLS playlist, NAME.m3u8, goes where NAME goes: its session and its parts reach the same owners.
              if object:sub(-5) == ".m3u8" then
                object = object:sub(1, -6)
                txn:set_var("txn.rondo_object", object)
              end
              local weights, ranked = {}, {}
              for i = 1, #nodes do
                weights[i] = txn.c:xxh64(nodes[i] .. object, 0)
                ranked[i] = i
              end
              table.sort(ranked, function(i, j) return before(weights[i], i, weights[j], j) end)
              local owners = {}
              for k = 1, replicas do
                owners[k] = ranked[k]
              end
              table.sort(owners)
              for k = 1, replicas do
                owners[k] = nodes[owners[k]]
              end
              txn:set_var("txn.rondo_backend", "owners_" .. table.concat(owners, "_"))
            end, 0)
            """.replace("NODES", names).replace("REPLICAS", Integer.toString(replicas)).replace("ACTION", ACTION);
    }
}
