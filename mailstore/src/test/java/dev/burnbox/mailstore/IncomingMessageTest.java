package dev.burnbox.mailstore;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class IncomingMessageTest {
  private static final Instant AT = Instant.parse("2026-11-28T05:00:00Z");
  private static final List<InboxName> TO = List.of(InboxName.of("alice"));

  @Test
  void theConstructorCopiesTheBytesAndRawHandsOutCopies() {
    byte[] raw = "Subject: hi\r\n\r\nbody\r\n".getBytes(US_ASCII);
    IncomingMessage m = new IncomingMessage(raw, "a@b.test", TO, AT, "", "hi", SpamVerdict.CLEAN);
    raw[0] = 'X';
    assertThat(m.rawView()[0]).isEqualTo((byte) 'S');
    m.raw()[0] = 'Y';
    assertThat(m.rawView()[0]).isEqualTo((byte) 'S');
  }

  @Test
  void handingOverTakesTheArrayItselfAndChecksLikeTheConstructor() {
    byte[] raw = "Subject: hi\r\n\r\nbody\r\n".getBytes(US_ASCII);
    IncomingMessage m =
        IncomingMessage.handingOver(raw, "a@b.test", TO, AT, "", "hi", SpamVerdict.CLEAN);
    assertThat(m.rawView()).isSameAs(raw);
    assertThat(m)
        .isEqualTo(new IncomingMessage(raw, "a@b.test", TO, AT, "", "hi", SpamVerdict.CLEAN));
    assertThatThrownBy(
            () ->
                IncomingMessage.handingOver(
                    raw, "a@b.test", List.of(), AT, "", "hi", SpamVerdict.CLEAN))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () ->
                IncomingMessage.handingOver(null, "a@b.test", TO, AT, "", "hi", SpamVerdict.CLEAN))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void recipientsAreCopiedAndUnmodifiable() {
    List<InboxName> to = new ArrayList<>(TO);
    IncomingMessage m =
        IncomingMessage.handingOver(new byte[1], "", to, AT, "", "", SpamVerdict.CLEAN);
    to.add(InboxName.of("bob"));
    assertThat(m.recipients()).containsExactly(InboxName.of("alice"));
    assertThatThrownBy(() -> m.recipients().add(InboxName.of("eve")))
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
