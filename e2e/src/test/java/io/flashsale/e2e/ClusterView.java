package io.flashsale.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flashsale.launcher.TemporalService;
import io.flashsale.launcher.cluster.ClusterSpec;
import io.flashsale.launcher.cluster.TemporalCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * What a Temporal cluster says of itself, through its own debugging tool {@code tdbg} (the admin
 * API of the frontend): the history hosts in its membership ring, the owner of each shard, and the
 * shard and history host of a workflow. Hosts are named by their gRPC address ({@code ip:port}).
 */
final class ClusterView {

    private static final Pattern HISTORY_ADDRESS = Pattern.compile("History service address: (\\S+)");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final TemporalCluster cluster;

    ClusterView(TemporalService temporal) {
        this.cluster = temporal.cluster().orElseThrow();
    }

    /** The gRPC address of the history host {@code node} (e.g. history-1). */
    String address(String node) {
        ClusterSpec spec = cluster.spec();
        return spec.ip() + ":" + spec.node(node).grpcPort();
    }

    /** The history hosts in the membership ring, as the frontend's ringpop sees them. */
    List<String> historyMembers() throws IOException, InterruptedException {
        List<String> members = new ArrayList<>();
        for (JsonNode ring : JSON.readTree(tdbg("membership", "list-gossip"))) {
            if (ring.path("role").asText().equals("history")) {
                ring.path("members")
                        .forEach(member -> members.add(member.path("identity").asText()));
            }
        }
        return members;
    }

    /** Shard id to the history host that owns it now (the owner recorded in the shard's row). */
    Map<Integer, String> shardOwners() throws IOException, InterruptedException {
        Map<Integer, String> owners = new TreeMap<>();
        for (int shard : IntStream.rangeClosed(1, cluster.spec().shards()).toArray()) {
            String owner = JSON.readTree(tdbg("shard", "describe", "--shard-id", "" + shard))
                    .path("owner")
                    .asText();
            // "ip:port-<n>-<uuid>": the host's address, then which of its sessions took the shard
            owners.put(shard, owner.substring(0, owner.indexOf('-')));
        }
        return owners;
    }

    /** The history host that holds {@code workflowId}'s mutable state. */
    String historyHostOf(String workflowId) throws IOException, InterruptedException {
        String described = tdbg("workflow", "describe", "--workflow-id", workflowId);
        Matcher matcher = HISTORY_ADDRESS.matcher(described);
        if (!matcher.find()) {
            throw new IllegalStateException("tdbg did not tell the history host of " + workflowId + ":\n" + described);
        }
        return matcher.group(1);
    }

    private String tdbg(String... command) throws IOException, InterruptedException {
        List<String> arguments = new ArrayList<>(List.of(
                cluster.tdbg().toString(),
                "--address",
                cluster.spec().address(),
                "--namespace",
                cluster.spec().namespace(),
                "--color",
                "never"));
        arguments.addAll(List.of(command));
        Process process =
                new ProcessBuilder(arguments).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IllegalStateException("tdbg " + String.join(" ", command) + " failed:\n" + output);
        }
        return output;
    }
}
