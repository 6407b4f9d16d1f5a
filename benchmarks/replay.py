"""The game-over replay of a whole quick battle: how long it takes to build from the stored log
(replaying the game, drawing every frame, encoding the GIF) and how big it is, for several
random battles played to their end by the random player.

    .venv/bin/python benchmarks/replay.py
    .venv/bin/python benchmarks/replay.py --seeds 1 2 3 4 5

Measured on the 2-core shared machine (seeds 1-5): 7-8 turns, 90-106 activations a battle;
1.06-1.26 MiB a GIF, 12-13 KiB a frame (a 6-turn battle, about 70 activations, stays under
1 MiB); built in 0.8-1.1 s once the fonts and terrain are cached (2.3 s for the first), about
half of it drawing, 40 % encoding, the rest replaying. An animated PNG of the same frames was
3.1 MiB, and Discord shows only its first frame.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.referee import live_history  # noqa: E402
from engine.scenarios.quick_battle import quick_battle  # noqa: E402
from engine.story import battle_story  # noqa: E402
from renderer.animation import animated_gif, replay_frames  # noqa: E402
from tests.engine.random_play import play_random_game  # noqa: E402


def measure(seed: int) -> str:
    start = quick_battle()
    final, history = play_random_game(start, seed)
    began = time.perf_counter()
    story = battle_story(start, live_history(history))
    replayed = time.perf_counter()
    frames = replay_frames(story.moments)
    drawn = time.perf_counter()
    gif = animated_gif(frames)
    done = time.perf_counter()
    return (
        f"seed {seed}: {final.turn} turns, {len(story.moments)} activations; "
        f"{len(gif) / 2**20:.2f} MiB ({len(gif) / len(frames) / 1024:.1f} KiB a frame), "
        f"{frames[0].image.width}x{frames[0].image.height}; built in {done - began:.2f} s "
        f"(replay {replayed - began:.2f}, draw {drawn - replayed:.2f}, encode {done - drawn:.2f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    for seed in parser.parse_args().seeds:
        print(measure(seed), flush=True)


if __name__ == "__main__":
    main()
