package io.rondo.server;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * How server-core's packages depend on each other: no cycle among them, the composition root on
 * top, what observes the server a leaf that is fed, and the disks with no network in them.
 */
@AnalyzeClasses(packages = "io.rondo.server", importOptions = ImportOption.DoNotIncludeTests.class)
class PackageLayersTest {

    /** Every package, the command line's subpackages included, free of cycles with every other. */
    @ArchTest
    static final ArchRule NO_PACKAGE_CYCLES = slices().matching("io.rondo.server.(**)").should().beFreeOfCycles();

    /** Metrics, events and disk watches know nothing of the server they watch: it feeds them. */
    @ArchTest
    static final ArchRule OBSERVE_IS_A_LEAF = noClasses().that().resideInAPackage("io.rondo.server.observe..")
        .should().dependOnClassesThat().resideInAnyPackage("io.rondo.server", "io.rondo.server.admin..",
            "io.rondo.server.cli..", "io.rondo.server.config..", "io.rondo.server.content..",
            "io.rondo.server.http..", "io.rondo.server.net..", "io.rondo.server.runtime..",
            "io.rondo.server.stream..");

    /** The disks at run time are the scheduler's: no Netty, no sockets. */
    @ArchTest
    static final ArchRule RUNTIME_HAS_NO_NETWORK = noClasses().that().resideInAPackage("io.rondo.server.runtime..")
        .should().dependOnClassesThat().resideInAnyPackage("io.netty..", "io.rondo.server.net..",
            "io.rondo.server.http..", "io.rondo.server.stream..", "io.rondo.server.admin..");

    /** Only the command line starts a server from the root; nothing below it reaches up to the root. */
    @ArchTest
    static final ArchRule NOTHING_REACHES_UP_TO_THE_ROOT = noClasses().that().resideInAnyPackage(
            "io.rondo.server.admin..", "io.rondo.server.config..", "io.rondo.server.content..",
            "io.rondo.server.http..", "io.rondo.server.net..", "io.rondo.server.observe..",
            "io.rondo.server.runtime..", "io.rondo.server.stream..")
        .should().dependOnClassesThat().resideInAPackage("io.rondo.server");
}
