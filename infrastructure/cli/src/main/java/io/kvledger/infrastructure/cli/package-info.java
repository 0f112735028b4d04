/**
 * The {@code kvledger} command line: one picocli command per subcommand, the scenario runner, input
 * handling and exit codes.
 */
package io.kvledger.infrastructure.cli;
