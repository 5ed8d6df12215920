package dev.burnbox.mailstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link EntryIndex} against a {@link LinkedHashMap} doing the same, over seeded random runs. */
class EntryIndexTest {
  static final class Item extends EntryIndex.Node {
    Item(MessageId id) {
      super(id);
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4, 5})
  void findsEveryEntryByIdAndWalksThemInTheOrderAdded(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    EntryIndex<Item> index = new EntryIndex<>();
    LinkedHashMap<MessageId, Item> model = new LinkedHashMap<>();
    List<MessageId> gone = new ArrayList<>();
    for (int step = 0; step < 20_000; step++) {
      int op = random.nextInt(10);
      // phases of growth and of shrinking, so the table doubles and halves many times
      boolean growing = (step / 2_000) % 2 == 0;
      if (op < (growing ? 6 : 2) || model.isEmpty()) {
        // ids clustered in their low bits too, so probe runs form despite the mixing
        MessageId id =
            random.nextBoolean()
                ? MessageId.random()
                : MessageId.of(random.nextInt(4), random.nextInt(1 << 16));
        if (model.containsKey(id)) {
          continue;
        }
        Item item = new Item(id);
        index.addNewest(item);
        model.put(id, item);
      } else if (op < 8) {
        Item oldest = model.firstEntry().getValue();
        assertThat(index.oldest()).isSameAs(oldest);
        index.remove(oldest);
        model.remove(oldest.id());
        gone.add(oldest.id());
      } else {
        List<MessageId> ids = new ArrayList<>(model.keySet());
        MessageId id = ids.get(random.nextInt(ids.size()));
        index.remove(model.remove(id));
        gone.add(id);
      }
      if (step % 500 == 0 || step == 19_999) {
        checkSame(index, model, gone);
      }
    }
  }

  private static void checkSame(
      EntryIndex<Item> index, LinkedHashMap<MessageId, Item> model, List<MessageId> gone) {
    assertThat(index.size()).isEqualTo(model.size());
    for (Item item : model.values()) {
      assertThat(index.get(item.id())).isSameAs(item);
    }
    for (MessageId id : gone) {
      if (!model.containsKey(id)) {
        assertThat(index.get(id)).isNull();
      }
    }
    assertThat(index.oldestFirst()).containsExactlyElementsOf(model.values());
    assertThat(index.newestFirst()).containsExactlyElementsOf(model.sequencedValues().reversed());
    assertThat(index.capacity()).isGreaterThanOrEqualTo(2 * index.size());
    if (index.capacity() > EntryIndex.MIN_CAPACITY) {
      assertThat(index.capacity()).isLessThanOrEqualTo(8 * index.size());
    }
  }

  @Test
  void refusesAnIdInUseAndAnEntryItDoesNotHold() {
    EntryIndex<Item> index = new EntryIndex<>();
    MessageId id = MessageId.random();
    index.addNewest(new Item(id));
    assertThatThrownBy(() -> index.addNewest(new Item(id)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("already in use");
    assertThatThrownBy(() -> index.remove(new Item(MessageId.random())))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> index.remove(new Item(id)))
        .as("another entry with the same id")
        .isInstanceOf(IllegalArgumentException.class);
  }
}
