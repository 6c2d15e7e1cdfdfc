package io.rondo.server.cli;

import io.rondo.content.model.MediaObject;
import io.rondo.server.content.Library;
import io.rondo.server.content.PlayerFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.util.concurrent.Callable;

/** {@code rondo mv}: renames an object; its bytes stay where they are. */
@Command(name = "mv", description = "Rename an object in the library.", mixinStandardHelpOptions = true)
final class MvCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FROM", description = "The object's name.")
    private String from;

    @Parameters(index = "1", paramLabel = "TO", description = "Its new name.")
    private String to;

    @Mixin
    private LibraryOptions libraryOptions;

    @Override
    public Integer call() throws IOException {
        if (PlayerFiles.reserved(to)) {
            throw new IllegalArgumentException(PlayerFiles.FOLDER + " holds Rondo's bundled player; choose another "
                + "name than " + to);
        }
        try (Library library = libraryOptions.open()) {
            MediaObject renamed = library.directory().rename(from, to);
            spec.commandLine().getOut().println("renamed " + from + " to " + renamed.name());
        }
        return 0;
    }
}
