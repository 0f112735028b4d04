/**
 * The fold of a captured log, event by event, with the command windows and key map that replay, audit
 * and explain share.
 */
package io.kvledger.application.replay;
