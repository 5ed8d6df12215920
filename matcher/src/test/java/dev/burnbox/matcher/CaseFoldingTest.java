package dev.burnbox.matcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.ibm.icu.lang.UCharacter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Checks {@link CaseFolding} against ICU's simple case folding over every code point. */
class CaseFoldingTest {

  @Test
  void foldsIntoTheSameClassesAsIcuSimpleCaseFolding() {
    List<String> mismatches = new ArrayList<>();
    for (int cp = 0; cp <= Character.MAX_CODE_POINT; cp++) {
      if (!Character.isDefined(cp)) {
        continue;
      }
      int ours = CaseFolding.foldCodePoint(cp);
      int icu = UCharacter.foldCase(cp, true);
      // a code point newer than this JDK's Unicode version cannot be compared
      if (!Character.isDefined(icu)) {
        continue;
      }
      boolean sameClass =
          CaseFolding.foldCodePoint(icu) == ours && UCharacter.foldCase(ours, true) == icu;
      if (!sameClass) {
        mismatches.add(String.format("U+%04X ours U+%04X icu U+%04X", cp, ours, icu));
      }
    }
    assertThat(mismatches).isEmpty();
  }

  @Test
  void foldingNeverChangesTheLengthInChars() {
    for (int cp = 0; cp <= Character.MAX_CODE_POINT; cp++) {
      assertThat(Character.charCount(CaseFolding.foldCodePoint(cp)))
          .as("U+%04X", cp)
          .isEqualTo(Character.charCount(cp));
    }
  }

  @Test
  void turkishDottedAndDotlessIFoldOnlyToThemselves() {
    assertThat(CaseFolding.foldString("İıIi")).isEqualTo("İıii");
  }

  @Test
  void supplementaryLettersListBothCases() {
    assertThat(CaseFolding.caseVariants(0x10400)).containsExactlyInAnyOrder(0x10400, 0x10428);
    assertThat(CaseFolding.caseVariants(0x1F600)).containsExactly(0x1F600);
  }
}
