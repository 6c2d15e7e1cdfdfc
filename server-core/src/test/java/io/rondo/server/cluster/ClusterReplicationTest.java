package io.rondo.server.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rondo.content.cluster.Rendezvous;
import io.rondo.scheduler.time.SystemClocks;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Three nodes of one cluster, two copies of each object: what a user of the admin API sees when an
 * upload, a listing or a delete reaches any node, and what a rebalance does after a node was down.
 */
class ClusterReplicationTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> NODES = List.of("a", "b", "c");

    @TempDir
    Path temp;

    private LocalCluster cluster;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void start() throws Exception {
        cluster = LocalCluster.of(temp, 2, "a", "b", "c").start();
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    @Test
    void anUploadAtANodeThatDoesNotOwnItEndsOnExactlyItsOwners() throws Exception {
        String name = objectNotOwnedBy("a", "/docs/");
        HttpResponse<String> reply = put("a", name, "the text of " + name);
        assertEquals(201, reply.statusCode(), reply.body());
        List<String> owners = Rendezvous.owners(name, NODES, 2);
        assertEquals(String.join(", ", owners), reply.headers().firstValue("Rondo-Nodes").orElseThrow());
        for (String node : NODES) {
            assertEquals(owners.contains(node), cluster.library(node).store().catalog().byName(name).isPresent(),
                node + " holds " + name + " if and only if it owns it");
        }
        HttpResponse<String> read = http.send(HttpRequest.newBuilder(URI.create(cluster.http(owners.get(1)) + name))
            .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals("the text of " + name, read.body(), "the copy reads as the upload");
    }

    @Test
    void everyNodeListsTheWholeClustersObjectsAndItsOwnOnAsking() throws Exception {
        List<String> names = IntStream.range(0, 6).mapToObj(i -> "/list/" + i + ".txt").toList();
        for (String name : names) {
            assertEquals(201, put("b", name, name).statusCode());
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> listed("c", "/list/").equals(names));
        List<String> own = listed("c", "/list/&scope=node");
        assertEquals(names.stream().filter(name -> Rendezvous.owns("c", name, NODES, 2)).toList(), own);
        assertTrue(own.size() < names.size(), "c holds only some of them: " + own);
        JsonNode firstPage = get("a", "/api/v1/objects?prefix=/list/&limit=4");
        assertEquals(4, firstPage.path("items").size());
        JsonNode secondPage = get("a", "/api/v1/objects?prefix=/list/&limit=4&cursor="
            + firstPage.path("next").asText());
        assertEquals(2, secondPage.path("items").size(), "a cluster listing pages by name as a node's does");
        assertTrue(secondPage.path("next").isNull());
    }

    @Test
    void everyNodesFolderPagesShowTheWholeClusterAndANodeWithoutAnObjectAsksForARetry() throws Exception {
        List<String> names = IntStream.range(0, 6).mapToObj(i -> "/pages/sub/" + i + ".txt").toList();
        for (String name : names) {
            assertEquals(201, put("a", name, name).statusCode());
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> page("b", "/pages/").contains("folder, 6 objects"));
        String sub = page("c", "/pages/sub/");
        names.forEach(name -> assertTrue(sub.contains(name.substring("/pages/sub/".length())), name + " in " + sub));
        String missing = names.stream().filter(name -> !Rendezvous.owns("c", name, NODES, 2)).findFirst()
            .orElseThrow();
        HttpResponse<String> elsewhere = http.send(HttpRequest.newBuilder(URI.create(cluster.http("c") + missing))
            .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(503, elsewhere.statusCode(), "HAProxy retries it on the object's other owner");
        assertEquals("1", elsewhere.headers().firstValue("Retry-After").orElseThrow());
    }

    private String page(String node, String folder) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(cluster.http(node) + folder)).build(),
            HttpResponse.BodyHandlers.ofString()).body();
    }

    @Test
    void aDeleteAtANodeWithoutTheObjectRemovesEveryCopy() throws Exception {
        String name = objectNotOwnedBy("c", "/gone/");
        assertEquals(201, put("a", name, "soon gone").statusCode());
        await().atMost(Duration.ofSeconds(10)).until(() -> listed("c", "/gone/").contains(name));
        HttpResponse<String> deleted = http.send(admin("c", "/api/v1/objects" + name).DELETE().build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(204, deleted.statusCode(), deleted.body());
        for (String node : NODES) {
            assertTrue(cluster.library(node).store().catalog().byName(name).isEmpty(), node + " has no copy left");
        }
    }

    @Test
    void anOwnerDownDuringAnUploadGetsItsCopyFromARebalance() throws Exception {
        String name = IntStream.range(0, 100).mapToObj(i -> "/late/" + i + ".txt")
            .filter(n -> Rendezvous.owns("c", n, NODES, 2) && Rendezvous.owns("a", n, NODES, 2))
            .findFirst().orElseThrow();
        cluster.stop("c");
        HttpResponse<String> reply = put("a", name, "written while c was down");
        assertEquals(201, reply.statusCode());
        assertEquals("a", reply.headers().firstValue("Rondo-Nodes").orElseThrow());
        assertTrue(reply.headers().firstValue("Rondo-Note").orElseThrow().contains("Not yet on c"),
            reply.headers().map().toString());
        cluster.start("c");
        NodeCopies copies = new NodeCopies(LocalCluster.ADMIN, new Throttle(64L << 20, SystemClocks.nanoClock()));
        Map<String, List<String>> held = new HashMap<>();
        for (String node : NODES) {
            held.put(node, copies.list(cluster.outside().node(node).orElseThrow()).stream()
                .map(NodeCopies.Listed::name).toList());
        }
        RebalancePlan plan = RebalancePlan.of(held, NODES, 2);
        assertEquals(List.of(new RebalancePlan.Copy(name, "a", "c")), plan.copies());
        NodeCopies.Listed object = copies.list(cluster.outside().node("a").orElseThrow()).get(0);
        copies.copy(object, cluster.outside().node("a").orElseThrow(), cluster.outside().node("c").orElseThrow());
        assertTrue(cluster.library("c").store().catalog().byName(name).isPresent());
        assertFalse(cluster.library("b").store().catalog().byName(name).isPresent());
    }

    private String objectNotOwnedBy(String node, String folder) {
        return IntStream.range(0, 100).mapToObj(i -> folder + i + ".txt")
            .filter(name -> !Rendezvous.owns(node, name, NODES, 2)).findFirst().orElseThrow();
    }

    private HttpResponse<String> put(String node, String name, String text) throws Exception {
        return http.send(admin(node, "/api/v1/objects" + name).PUT(HttpRequest.BodyPublishers.ofString(text))
            .build(), HttpResponse.BodyHandlers.ofString());
    }

    private List<String> listed(String node, String query) throws Exception {
        List<String> names = new ArrayList<>();
        get(node, "/api/v1/objects?prefix=" + query).path("items")
            .forEach(item -> names.add(item.path("name").asText()));
        return names;
    }

    private JsonNode get(String node, String pathAndQuery) throws Exception {
        HttpResponse<String> reply = http.send(admin(node, pathAndQuery).GET().build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(200, reply.statusCode(), reply.body());
        return JSON.readTree(reply.body());
    }

    private HttpRequest.Builder admin(String node, String pathAndQuery) {
        return HttpRequest.newBuilder(URI.create(cluster.admin(node) + pathAndQuery))
            .header("Authorization", "Bearer " + LocalCluster.ADMIN);
    }
}
