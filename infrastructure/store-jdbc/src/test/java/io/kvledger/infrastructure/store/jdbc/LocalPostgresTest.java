package io.kvledger.infrastructure.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestPostgres.class)
class LocalPostgresTest {

    @Test
    void theTestServerAnswersOnLoopbackAndEachDatabaseStartsEmpty() throws SQLException {
        String first = TestPostgres.newDatabase();
        String second = TestPostgres.newDatabase();
        assertNotEquals(first, second);
        try (Connection a = DriverManager.getConnection(first); Statement s = a.createStatement()) {
            s.execute("CREATE TABLE marker (id int)");
        }
        try (Connection b = DriverManager.getConnection(second); Statement s = b.createStatement();
             ResultSet tables = s.executeQuery("SELECT count(*) FROM pg_tables WHERE tablename = 'marker'")) {
            tables.next();
            assertEquals(0, tables.getInt(1));
        }
        int port = TestPostgres.server().port();
        assertFalse(port < 51200 || port > 51299, "port " + port + " is outside issue 12's range");
    }

    @Test
    void aSecondServerTakesTheNextFreePortAndLeavesNothingBehind() throws Exception {
        try (LocalPostgres other = LocalPostgres.start(TestPostgres.server().port(), LocalPostgres.THROWAWAY)) {
            assertNotEquals(TestPostgres.server().port(), other.port());
            other.createDatabase("x");
            try (Connection c = DriverManager.getConnection(other.jdbcUrl("x")); Statement s = c.createStatement();
                 ResultSet r = s.executeQuery("SHOW fsync")) {
                r.next();
                assertEquals("off", r.getString(1));
            }
        }
    }
}
