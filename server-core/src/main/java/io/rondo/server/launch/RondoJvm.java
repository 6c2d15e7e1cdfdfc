package io.rondo.server.launch;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line that runs {@code rondo} in a JVM of its own, as a person runs it: this JVM's
 * {@code java}, the flags the content catalog (Chronicle Map) needs on Java 17, the configuration
 * folder, and either a rondo.jar or Rondo's classes on this JVM's class path. A subcommand and its
 * arguments go after it ({@link #command}).
 */
public final class RondoJvm {

    /**
     * The JVM flags rondo.jar needs on Java 17: the parent pom's {@code rondo.jvm.flags}, which the
     * {@code ./rondo} script repeats; change them together. Charts are drawn headless.
     */
    public static final List<String> JVM_FLAGS = List.of(
        "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
        "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
        "--add-opens=java.base/java.lang=ALL-UNNAMED",
        "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
        "-Dchronicle.analytics.disable=true",
        "-Djava.awt.headless=true");

    private static final String MAIN_CLASS = "io.rondo.server.cli.RondoCommand";

    private final List<String> launch;

    private RondoJvm(List<String> launch) {
        this.launch = List.copyOf(launch);
    }

    /**
     * rondo.jar, with the configuration in {@code configDir}.
     *
     * @param javaOptions more flags for its JVM, after Rondo's own (so they win), e.g. {@code -Xmx2g}
     */
    public static RondoJvm jar(Path jar, Path configDir, List<String> javaOptions) {
        List<String> command = new ArrayList<>();
        command.add(java());
        command.addAll(JVM_FLAGS);
        command.add("-Drondo.config.dir=" + configDir);
        command.addAll(javaOptions);
        command.addAll(List.of("-jar", jar.toString()));
        return new RondoJvm(command);
    }

    /**
     * Rondo's classes on this JVM's class path, with this JVM's module openings ({@code --add-*})
     * and its {@code rondo.config.dir} if it has one: a test's way to run the code it was built with.
     *
     * @param javaOptions more flags for its JVM, first, e.g. {@code -Xmx256m}
     */
    public static RondoJvm thisClassPath(List<String> javaOptions) {
        List<String> command = new ArrayList<>();
        command.add(java());
        command.addAll(javaOptions);
        ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
            .filter(flag -> flag.startsWith("--add-")).forEach(command::add);
        String configDir = System.getProperty("rondo.config.dir");
        if (configDir != null) {
            command.add("-Drondo.config.dir=" + configDir);
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), MAIN_CLASS));
        return new RondoJvm(command);
    }

    /** The whole command line: this JVM's, then {@code subcommandAndArguments}, e.g. {@code ingest --data D F}. */
    public List<String> command(List<String> subcommandAndArguments) {
        List<String> command = new ArrayList<>(launch);
        command.addAll(subcommandAndArguments);
        return command;
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
