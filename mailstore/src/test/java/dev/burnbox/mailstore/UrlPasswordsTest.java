package dev.burnbox.mailstore;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What {@link UrlPasswords#hide} hides in a URL, and what it leaves. */
class UrlPasswordsTest {
  @Test
  void thePasswordOfAUrlIsHiddenAndTheRestShown() {
    assertThat(UrlPasswords.hide("redis://u:pw@h:1")).isEqualTo("redis://u:(hidden)@h:1");
    assertThat(UrlPasswords.hide("redis://u:p@ss@h:1/0?x=y"))
        .isEqualTo("redis://u:(hidden)@h:1/0?x=y");
    assertThat(UrlPasswords.hide("redis-cluster://:pw@10.0.0.1:7000,10.0.0.2:7000"))
        .isEqualTo("redis-cluster://:(hidden)@10.0.0.1:7000,10.0.0.2:7000");
  }

  @Test
  void aUrlWithoutPasswordAndTextWithoutUrlAreShownAsTheyAre() {
    assertThat(UrlPasswords.hide("redis://u@h:1")).isEqualTo("redis://u@h:1");
    assertThat(UrlPasswords.hide("redis://h:1")).isEqualTo("redis://h:1");
    assertThat(UrlPasswords.hide("http://h/a:b@c")).isEqualTo("http://h/a:b@c");
    assertThat(UrlPasswords.hide("no url: here@all")).isEqualTo("no url: here@all");
  }

  @Test
  void everyUrlInTheTextHasItsPasswordHidden() {
    assertThat(UrlPasswords.hide("got redis://a:1@h:1/0 and http://b:2@g/x, not redis://c@i"))
        .isEqualTo("got redis://a:(hidden)@h:1/0 and http://b:(hidden)@g/x, not redis://c@i");
    // a password may hold a space: the authority runs on to the next / ? #, or the text's end
    assertThat(UrlPasswords.hide("redis://u:Hunter 2@h:1")).isEqualTo("redis://u:(hidden)@h:1");
  }
}
