package dev.burnbox.server.pipeline;

import dev.burnbox.matcher.MatcherKind;
import dev.burnbox.server.config.OptionRecord;
import dev.burnbox.server.config.OptionValues;
import dev.burnbox.server.config.WhenUnset;
import dev.burnbox.server.pipeline.IntakePipeline.SpamPolicy;
import dev.burnbox.wordlists.SpamModel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.stream.Collectors;
import picocli.CommandLine.Option;

/**
 * The message pipeline's settings (the spam model and verdict, the subject flood ban): each
 * component is an option of {@code burnbox serve}, declared here once (see {@link OptionRecord}).
 * Immutable; make one with {@link #of}. Guarantees, checked at construction with a message naming
 * the option: the matcher is known, the spam threshold (when given) is a probability strictly
 * between 0 and 1, the subject flood count is at least 2 and its window and ban are positive (see
 * {@link SubjectFloodFilter}).
 */
public record PipelineSettings(
    @Option(
            names = "--subject-flood-count",
            paramLabel = "N",
            defaultValue = "200",
            description =
                "about this many mails with one subject within the window ban the subject (450 4.7.1)")
        int subjectFloodCount,
    @Option(
            names = "--subject-flood-window",
            paramLabel = "DURATION",
            defaultValue = "5m",
            converter = OptionValues.Durations.class,
            description = "the window of the count above")
        Duration subjectFloodWindow,
    @Option(
            names = "--subject-flood-ban",
            paramLabel = "DURATION",
            defaultValue = "1h",
            converter = OptionValues.Durations.class,
            description = "how long the ban lasts")
        Duration subjectFloodBan,
    @Option(
            names = "--matcher",
            paramLabel = "NAME",
            defaultValue = "best",
            description =
                "`naive`, `boyer-moore`, `trie`, `aho-corasick`, `wu-manber`, `org-ahocorasick` or"
                    + " `best` (Wu-Manber for up to 200 terms of 4+ characters, else Aho-Corasick)")
        String matcher,
    @Option(
            names = "--terms",
            paramLabel = "FILE",
            description =
                "a spam model file (`term TAB weight TAB part TAB idf`, see"
                    + " [wordlists/README.md](wordlists/README.md#the-spam-model-default-verdict)) or a"
                    + " plain term list, one per line (`#` comments; each hit counts 1, at most 3 per"
                    + " term, spam from 5); reloaded when the file changes or on SIGHUP; a bad file is"
                    + " refused with its line and reason, and the old model stays")
        @WhenUnset("built-in model")
        Path terms,
    @Option(
            names = "--spam",
            paramLabel = "tag|reject",
            defaultValue = "tag",
            description =
                "`tag` stores spam with its verdict; `reject` answers 550 5.7.1 at the end of DATA and"
                    + " stores nothing")
        SpamPolicy spam,
    @Option(
            names = "--spam-threshold",
            paramLabel = "PROBABILITY",
            description =
                "probability (between 0 and 1) from which a message is spam; the built-in model's is the"
                    + " one that flagged at most 0.5%% of ham in cross-validation (0.7109); a plain"
                    + " list's is 0.5 (5 hits)")
        @WhenUnset("the model's")
        Double spamThreshold) {

  /**
   * @throws IllegalArgumentException if a value is invalid (see the type's guarantees)
   */
  public PipelineSettings {
    if (subjectFloodCount < 2) {
      throw new IllegalArgumentException(
          "--subject-flood-count must be at least 2: " + subjectFloodCount);
    }
    requirePositive(subjectFloodWindow, "--subject-flood-window");
    requirePositive(subjectFloodBan, "--subject-flood-ban");
    if (!matcher.equals("best")
        && Arrays.stream(MatcherKind.values()).noneMatch(kind -> kind.cliName().equals(matcher))) {
      throw new IllegalArgumentException(
          "--matcher must be "
              + Arrays.stream(MatcherKind.values())
                  .map(MatcherKind::cliName)
                  .collect(Collectors.joining(", "))
              + " or best: "
              + matcher);
    }
    if (spamThreshold != null) {
      try {
        SpamModel.checkThreshold(spamThreshold);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--spam-threshold: " + e.getMessage(), e);
      }
    }
  }

  /**
   * These options given, every other at its default.
   *
   * @throws IllegalArgumentException if an option is unknown or a value invalid
   */
  public static PipelineSettings of(String... options) {
    return OptionRecord.parse(PipelineSettings.class, options);
  }

  /** {@code --matcher}: null for {@code best}. */
  public MatcherKind matcherKind() {
    return matcher.equals("best") ? null : MatcherKind.fromCliName(matcher);
  }

  private static void requirePositive(Duration duration, String option) {
    Objects.requireNonNull(duration, option);
    if (duration.isZero() || duration.isNegative()) {
      throw new IllegalArgumentException(option + " must be positive: " + duration);
    }
  }
}
