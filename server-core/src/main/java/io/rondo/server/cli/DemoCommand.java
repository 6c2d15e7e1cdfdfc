package io.rondo.server.cli;

import io.rondo.content.ingest.DemoLibrary;
import io.rondo.content.model.MediaObject;
import io.rondo.server.content.Library;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code rondo demo}: installs the demo library into an empty library ({@link DemoLibrary}). */
@Command(name = "demo",
    description = "Install the demo library (a page, a text, a picture, a WebM and a fragmented MP4 clip) into an "
        + "empty library.",
    mixinStandardHelpOptions = true)
final class DemoCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private LibraryOptions libraryOptions;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        try (Library library = libraryOptions.open()) {
            List<MediaObject> installed = DemoLibrary.installIfEmpty(library.store().catalog(), library.ingest());
            if (installed.isEmpty()) {
                out.println("the library holds " + library.store().catalog().size()
                    + " objects already; the demo library goes only into an empty one");
            }
            installed.forEach(object -> out.println(IngestCommand.describe(object)));
        }
        return 0;
    }
}
