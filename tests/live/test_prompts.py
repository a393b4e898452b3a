"""The loop's own prompts: its codes outside the rules, each voiced from the bank's [prompts]."""

import pytest

from phrases.bank import BankError, Channel, bank
from phrases.render import Prompt, render
from rules.announcement import Code
from rules.command import Command, Kind
from voice.live.prompts import PROMPTS, LoopCode, confirmation, prompt


def test_the_bank_lists_exactly_the_prompts_the_loop_says():
    assert set(bank().prompts) == PROMPTS


def test_the_loop_codes_are_not_the_rules_codes():
    assert not {str(code) for code in LoopCode} & {str(code) for code in Code}


def test_every_prompt_is_for_the_referee_alone_but_the_lost_headset_s_word_and_the_tone():
    for code in LoopCode:
        said = prompt(code)
        # the headset is gone: said on the PA; the shot clock's tone is the hall's to hear
        hall = code in (LoopCode.HEADSET_LOST, LoopCode.SHOT_CLOCK_TONE)
        assert said.code is code and said.channel is (Channel.PA if hall else Channel.HEADSET)


def test_a_command_is_confirmed_by_its_name_or_plainly():
    named = confirmation(Command(Kind.STARTS, player="Α"))
    assert (named.code, named.text) == (LoopCode.TAKEN, "ξεκινά Α")
    assert confirmation(Command(Kind.WARM_UP, player="Α")).text == "εντάξει"


def test_a_prompt_the_bank_lacks_is_a_bank_error_naming_it():
    with pytest.raises(BankError, match="no entry 'taken.undo'"):
        render(Prompt(LoopCode.TAKEN, variant=Kind.UNDO))
