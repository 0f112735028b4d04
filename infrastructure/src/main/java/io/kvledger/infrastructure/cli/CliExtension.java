package io.kvledger.infrastructure.cli;

/**
 * More subcommands, from modules the command line does not depend on (the fleet's), found on the class
 * path through {@link java.util.ServiceLoader}: {@link #command} is a picocli {@code @Command} object.
 */
public interface CliExtension {

    Object command();
}
