"""Q(s, a) for whole moves, in NumPy alone: the network of the DMC trainer
(``shengji.env.dmc``) and of the ``learned`` bot.

    q = w3 · relu(W2 · relu(Ws · s + Wa · a + b1) + b2) + b3

``s`` is the observation vector over its upper bounds (``Layout.high``), ``a`` a listed
move's features (``shengji.env.moves``) over fixed scales: the state's part is computed
once per decision and shared by every move listed. ``save``/``load`` use one ``.npz``
(arrays, and the metadata as JSON text: no pickles).
"""

from __future__ import annotations

import json

import numpy as np

from .moves import MOVE_FEATURES, MOVE_LAYOUT

#: the move features' scales, by column (shengji.env.moves.MOVE_LAYOUT)
_SCALES = {"kind": 1.0, "cards": 4.0, "n_cards": 30.0, "points": 100.0, "is_pass": 1.0,
           "n_kinds": 20.0, "trumps": 20.0, "top": 1.0, "wins": 1.0, "partner": 1.0,
           "trick_pts": 100.0}
MOVE_SCALE = np.concatenate([np.full(b - a, _SCALES[name], np.float32)
                             for name, (a, b) in MOVE_LAYOUT.slices.items()])
assert len(MOVE_SCALE) == MOVE_FEATURES


class QNet:
    def __init__(self, obs_high, hidden: int = 128, hidden2: int = 64, seed: int = 0,
                 meta: dict | None = None):
        rng = np.random.default_rng(seed)
        d = len(obs_high)
        self.inv_high = (1.0 / np.maximum(np.asarray(obs_high, np.float32), 1.0)).astype(
            np.float32)
        self.inv_move = (1.0 / MOVE_SCALE).astype(np.float32)

        def init(n_in, n_out):
            return (rng.standard_normal((n_in, n_out)) * np.sqrt(2.0 / n_in)).astype(np.float32)

        self.params = {
            "Ws": init(d, hidden) * 0.5, "Wa": init(MOVE_FEATURES, hidden) * 0.5,
            "b1": np.zeros(hidden, np.float32),
            "W2": init(hidden, hidden2), "b2": np.zeros(hidden2, np.float32),
            "w3": init(hidden2, 1) * 0.1, "b3": np.zeros(1, np.float32),
        }
        self.meta = dict(meta or {})

    # ------------------------------------------------------------------ inference

    def q_values(self, obs, moves) -> np.ndarray:
        """Q of each row of ``moves`` (n × MOVE_FEATURES) in state ``obs``."""
        p = self.params
        hs = (obs * self.inv_high) @ p["Ws"]
        h1 = np.maximum((moves * self.inv_move) @ p["Wa"] + hs + p["b1"], 0)
        h2 = np.maximum(h1 @ p["W2"] + p["b2"], 0)
        return (h2 @ p["w3"])[:, 0] + p["b3"][0]

    def best(self, obs: dict) -> int:
        """The listed move of highest Q (an observation dict of whole-move mode)."""
        n = int(obs["action_mask"].sum())
        return int(np.argmax(self.q_values(obs["observation"], obs["moves"][:n])))

    # ------------------------------------------------------------------ training

    def loss_and_grads(self, S, A, y):
        """Mean squared error of Q(S[i], A[i]) against y, and its gradients."""
        s = S * self.inv_high
        a = A * self.inv_move
        z1 = s @ self.params["Ws"] + a @ self.params["Wa"] + self.params["b1"]
        layers, q = self.tail(z1)
        err = q - y
        loss = float(np.mean(err ** 2))
        g, dz1 = self.tail_grads(layers, (2.0 / len(y)) * err[:, None])
        g["Ws"] = s.T @ dz1
        g["Wa"] = a.T @ dz1
        return loss, g

    def tail(self, z1):
        """From the first layer's sum (before its ReLU) to Q: the layers kept for
        ``tail_grads``, and Q of each row. Shared by every loss the trainers fit."""
        p = self.params
        h1 = np.maximum(z1, 0)
        z2 = h1 @ p["W2"] + p["b2"]
        h2 = np.maximum(z2, 0)
        return (z1, h1, z2, h2), (h2 @ p["w3"])[:, 0] + p["b3"][0]

    def tail_grads(self, layers, dq):
        """The gradients of the layers above the first sum for dLoss/dQ ``dq`` (rows × 1),
        with ``b1``'s, and dLoss/d(first sum) for the caller's own Ws and Wa."""
        p = self.params
        z1, h1, z2, h2 = layers
        g = {"w3": h2.T @ dq, "b3": dq.sum(0)}
        dz2 = (dq @ p["w3"].T) * (z2 > 0)
        g["W2"] = h1.T @ dz2
        g["b2"] = dz2.sum(0)
        dz1 = (dz2 @ p["W2"].T) * (z1 > 0)
        g["b1"] = dz1.sum(0)
        return g, dz1

    # ------------------------------------------------------------------ files

    def save(self, path, half: bool = False) -> None:
        """One ``.npz``; ``half``: the weights as float16 (half the size, for shipping;
        ``load`` gives float32 back)."""
        meta = json.dumps({**self.meta, "hidden": self.params["W2"].shape[0],
                           "hidden2": self.params["W2"].shape[1]})
        dtype = np.float16 if half else np.float32
        np.savez_compressed(path, inv_high=self.inv_high, meta=np.array(meta),
                            **{k: v.astype(dtype) for k, v in self.params.items()})

    @classmethod
    def load(cls, path) -> QNet:
        """A network ``save`` wrote. A file that is not one — missing, not an ``.npz``, an
        array missing or of the wrong shape, values not finite, metadata not JSON — is a
        ``CheckpointError`` naming the file and the problem (one line)."""
        import zipfile

        from ..errors import CheckpointError

        try:
            f = np.load(path, allow_pickle=False)
        except FileNotFoundError:
            raise CheckpointError(f"{path}: no such file") from None
        except (OSError, ValueError, EOFError, zipfile.BadZipFile) as e:
            raise CheckpointError(f"{path}: not a network checkpoint (.npz): {e}") from None
        if not isinstance(f, np.lib.npyio.NpzFile):
            raise CheckpointError(f"{path}: one array, not a network checkpoint (.npz)")
        try:
            with f:
                missing = [k for k in ("meta", "inv_high", *_SHAPES) if k not in f.files]
                if missing:
                    raise CheckpointError(f"{path}: not a network checkpoint (no "
                                          f"{', '.join(missing)})")
                arrays = {k: f[k] for k in ("inv_high", *_SHAPES)}
                meta_text = f["meta"]
        except CheckpointError:
            raise
        except (OSError, ValueError, EOFError, zipfile.BadZipFile) as e:
            raise CheckpointError(f"{path}: unreadable checkpoint: {e}") from None
        try:
            meta = json.loads(str(meta_text))
        except ValueError:
            raise CheckpointError(f"{path}: its metadata is not JSON") from None
        net = cls.__new__(cls)
        net.meta = _checked_meta(path, meta)
        d = len(arrays["inv_high"]) if arrays["inv_high"].ndim == 1 else -1
        h = arrays["W2"].shape[0] if arrays["W2"].ndim == 2 else -1
        h2 = arrays["W2"].shape[1] if arrays["W2"].ndim == 2 else -1
        sizes = {"d": d, "h": h, "h2": h2, "f": MOVE_FEATURES}
        for k, a in arrays.items():
            want = tuple(sizes[x] if isinstance(x, str) else x
                         for x in (("d",) if k == "inv_high" else _SHAPES[k]))
            if a.shape != want or a.dtype.kind != "f":
                raise CheckpointError(f"{path}: array {k} is {a.dtype} {a.shape}; this "
                                      f"network needs floats {want}")
            if not np.isfinite(a).all():
                raise CheckpointError(f"{path}: array {k} holds values that are not finite")
        if net.meta["obs_size"] != d:
            raise CheckpointError(f"{path}: metadata says observations of "
                                  f"{net.meta['obs_size']} floats, the arrays take {d}")
        net.inv_high = arrays["inv_high"].astype(np.float32)
        net.inv_move = (1.0 / MOVE_SCALE).astype(np.float32)
        net.params = {k: arrays[k].astype(np.float32) for k in _SHAPES}
        return net


#: the parameters' shapes: d observation floats, h and h2 units, f move features
_SHAPES: dict[str, tuple] = {"Ws": ("d", "h"), "Wa": ("f", "h"), "b1": ("h",),
                             "W2": ("h", "h2"), "b2": ("h2",), "w3": ("h2", 1), "b3": (1,)}


def _checked_meta(path, meta) -> dict:
    """The metadata fields inference reads, checked (CheckpointError naming the field)."""
    from ..errors import CheckpointError

    if not isinstance(meta, dict):
        raise CheckpointError(f"{path}: its metadata is not a JSON object")
    for key, lo, hi in (("players", 2, 12), ("history", 0, 64), ("max_moves", 2, 1 << 16),
                        ("obs_size", 1, 1 << 24)):
        v = meta.get(key)
        if type(v) is not int or not lo <= v <= hi:
            raise CheckpointError(f"{path}: metadata {key}: {v!r} is not a number "
                                  f"{lo}..{hi}")
    return meta


class Adam:
    def __init__(self, params: dict, lr: float = 1e-3, b1: float = 0.9, b2: float = 0.999):
        self.lr, self.b1, self.b2 = lr, b1, b2
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.t = 0

    def step(self, params: dict, grads: dict, clip: float = 5.0) -> None:
        self.t += 1
        norm = np.sqrt(sum(float((g ** 2).sum()) for g in grads.values()))
        scale = min(1.0, clip / (norm + 1e-8))
        for k, g in grads.items():
            g = g * scale
            self.m[k] = self.b1 * self.m[k] + (1 - self.b1) * g
            self.v[k] = self.b2 * self.v[k] + (1 - self.b2) * g * g
            mh = self.m[k] / (1 - self.b1 ** self.t)
            vh = self.v[k] / (1 - self.b2 ** self.t)
            params[k] -= (self.lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
