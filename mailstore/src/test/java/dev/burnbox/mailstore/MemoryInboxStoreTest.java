package dev.burnbox.mailstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.InstantSource;

/** The shared contract, run against the memory backend, plus what only the memory backend says. */
class MemoryInboxStoreTest extends InboxStoreContractTest {

  @Override
  InboxStore newStore(Limits limits, InstantSource clock) {
    return InboxStore.memory()
        .inboxCap(limits.inboxCap())
        .maxBytes(limits.maxBytes())
        .ttl(limits.ttl())
        .stripPlusTags(limits.stripPlusTags())
        .clock(clock)
        .build();
  }

  @Override
  void checkInvariants(InboxStore store) {
    assertThat(store).isInstanceOf(MemoryInboxStore.class);
    ((MemoryInboxStore) store).checkInvariants();
  }
}
