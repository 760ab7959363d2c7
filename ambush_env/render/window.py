"""The ``"human"`` render mode's window: shows rgb frames in a pygame window (docs/API.md
render modes).

pygame (the ``window`` extra, pygame-ce) is imported only when a window opens. Closing the
window (its close button) is noticed on the next frame: the window goes away and
:meth:`MapWindow.show` returns False from then on, without raising, so a training or replay
loop carries on without the picture.
"""

from __future__ import annotations

from typing import Any

import numpy as np

INSTALL_HINT = 'pip install "ambush_env[window]"'


def pygame_available() -> bool:
    """Whether pygame can be imported here, found without importing it (no window opens, no
    greeting is printed): ``importlib.util.find_spec``, False when it is missing or hidden
    (``sys.modules["pygame"] = None``) or when looking it up fails.
    """
    import importlib.util

    try:
        return importlib.util.find_spec("pygame") is not None
    except (ImportError, ValueError):  # a finder refusing it; a half-imported module
        return False


def import_pygame() -> Any:
    """pygame, imported now.

    Raises:
        ImportError: pygame is not installed (the message says how to install it).
    """
    import os

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # no greeting on stdout
    try:
        import pygame
    except ImportError as e:  # pragma: no cover - exercised where the extra is missing
        raise ImportError(f'render_mode="human" needs pygame: {INSTALL_HINT} (pygame-ce)') from e
    return pygame


class MapWindow:
    """A window showing one frame at a time, at most ``fps`` frames a second.

    Args:
        title: the window's caption.
        fps: frames a second (Gymnasium's ``metadata["render_fps"]``); 0 or None: no limit.

    Attributes:
        closed: the window was closed (by :meth:`close` or by the user).
        size: ``(width, height)`` of the window's surface, None before the first frame.
    """

    def __init__(self, title: str = "ambush_env", fps: float | None = 4) -> None:
        self.title = title
        self.fps = fps
        self.closed = False
        self.size: tuple[int, int] | None = None
        self._pg: Any = None
        self._screen: Any = None
        self._clock: Any = None

    def show(self, frame: np.ndarray) -> bool:
        """Draw ``frame`` (``(H, W, 3) uint8``) in the window, opening it on the first call and
        resizing it when the frame's size changes; waits to keep to ``fps``.

        Returns:
            True while the window is open; False once it has been closed (nothing drawn).

        Raises:
            ImportError: pygame is not installed.
            ValueError: ``frame`` is not an ``(H, W, 3)`` array.
            RuntimeError: no window can be opened (no display).
        """
        if self.closed:
            return False
        frame = np.ascontiguousarray(frame, dtype=np.uint8)
        if frame.ndim != 3 or frame.shape[2] != 3:
            raise ValueError(f"a frame is an (H, W, 3) uint8 array, got shape {frame.shape}")
        pg = self._pg
        if pg is None:
            pg = import_pygame()
            try:
                pg.display.init()
            except pg.error as e:
                raise RuntimeError(
                    f"cannot open a window ({e}); without a display use "
                    'render_mode="rgb_array", or SDL_VIDEODRIVER=dummy'
                ) from e
            self._pg = pg
            pg.display.set_caption(self.title)
            self._clock = pg.time.Clock()
        for event in pg.event.get():
            if event.type == pg.QUIT:
                self.close()
                return False
        h, w = frame.shape[:2]
        if self._screen is None or self.size != (w, h):
            try:
                self._screen = pg.display.set_mode((w, h))
            except pg.error as e:
                raise RuntimeError(
                    f"cannot open a window ({e}); without a display use "
                    'render_mode="rgb_array", or SDL_VIDEODRIVER=dummy'
                ) from e
            self.size = (w, h)
        self._screen.blit(pg.image.frombuffer(frame.tobytes(), (w, h), "RGB"), (0, 0))
        pg.display.flip()
        if self.fps:
            self._clock.tick(self.fps)
        return True

    def close(self) -> None:
        """Close the window (idempotent)."""
        if self._pg is not None and not self.closed:
            self._pg.display.quit()
        self.closed = True
        self._screen = None
