package io.kvledger.application.axon;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.axonframework.common.Registration;
import org.axonframework.common.caching.Cache;

/**
 * Keeps loaded aggregates for as long as the process runs. An engine is one long-lived aggregate;
 * Axon's {@code WeakReferenceCache} loses it at any garbage collection, and every miss re-reads the
 * whole event stream.
 */
public final class StrongReferenceCache implements Cache {

    private final ConcurrentMap<Object, Object> entries = new ConcurrentHashMap<>();
    private final CopyOnWriteArrayList<EntryListener> listeners = new CopyOnWriteArrayList<>();

    @Override
    @SuppressWarnings("unchecked")
    public <K, V> V get(K key) {
        return (V) entries.get(key);
    }

    @Override
    public void put(Object key, Object value) {
        Object previous = entries.put(key, value);
        for (EntryListener listener : listeners) {
            if (previous == null) {
                listener.onEntryCreated(key, value);
            } else {
                listener.onEntryUpdated(key, value);
            }
        }
    }

    @Override
    public boolean putIfAbsent(Object key, Object value) {
        boolean added = entries.putIfAbsent(key, value) == null;
        if (added) {
            listeners.forEach(listener -> listener.onEntryCreated(key, value));
        }
        return added;
    }

    @Override
    public boolean remove(Object key) {
        boolean removed = entries.remove(key) != null;
        if (removed) {
            listeners.forEach(listener -> listener.onEntryRemoved(key));
        }
        return removed;
    }

    @Override
    public void removeAll() {
        entries.keySet().forEach(this::remove);
    }

    @Override
    public boolean containsKey(Object key) {
        return entries.containsKey(key);
    }

    @Override
    public Registration registerCacheEntryListener(EntryListener listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }
}
