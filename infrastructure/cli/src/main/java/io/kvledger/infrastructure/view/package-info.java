/**
 * The command line's text and JSON views of states, requests, timelines and explanations.
 */
package io.kvledger.infrastructure.view;
