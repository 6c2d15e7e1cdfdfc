package io.rondo.server.cli;

import io.rondo.server.content.PlayerFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.util.concurrent.Callable;

/**
 * {@code rondo mv}: renames an object; its bytes stay where they are. Beside a running server that
 * holds the library, the server renames it.
 */
@Command(name = "mv", description = {"Rename an object in the library.",
    "While rondo serve holds the library, the object is renamed through its admin API."},
    mixinStandardHelpOptions = true)
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
        try (LibraryOptions.Opened opened = libraryOptions.openOrServer(libraryOptions.settings())) {
            String renamed = opened.server() != null ? opened.server().move(from, to).path("name").asText(to)
                : opened.library().directory().rename(from, to).name();
            spec.commandLine().getOut().println("renamed " + from + " to " + renamed);
        }
        return 0;
    }
}
