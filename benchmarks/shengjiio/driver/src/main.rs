//! JSON-lines driver over shengji.io's mechanics crate, for shengji's differential harness
//! (benchmarks/shengjiio_diff.py). One request a line on stdin, one answer a line on stdout.
//!
//! Every request: {"op", "level": "2".."A", "trump": "S"|"H"|"C"|"D"|null, settings...}
//! settings (shengji.io names, defaults = its defaults):
//!   "draw": TrickDrawPolicy, "throw_eval": ThrowEvaluationPolicy, "bombs": BombPolicy,
//!   "rainbows": null | n (CompoundFormats.rainbows), "tractor": [min_count, min_length]
//! Cards in shengji's notation ("SA", "H10", "LJ", "BJ").
//!   {"op":"decompose","cards":[..]}            -> {"units":[[..],..],"rainbow":bool}
//!   {"op":"follow","lead":[..],"hand":[..],"play":[..]} -> {"legal":bool}
//!   {"op":"throw","lead":[..],"others":[[..],..]}  -> {"valid":bool,"forced":[..],"blocker":i}
//!   {"op":"winner","hands":[[..],..],"plays":[[..],..]} -> {"winner":i}
//!     (a trick played through Trick::play_cards from those hands, as play_phase.rs does;
//!      a failed throw or an illegal play is an error naming it)
//! Anything wrong: {"error": "..."}; a panic inside the crate is caught and reported.
use std::collections::HashMap;
use std::io::{self, BufRead, Write};

use serde_json::{json, Value};
use shengji_mechanics::hands::Hands;
use shengji_mechanics::trick::{
    BombPolicy, CompoundFormats, PlayCards, PlayCardsMessage, ThrowEvaluationPolicy, Trick,
    TrickDrawPolicy, TrickFormat, TrickUnit, TractorRequirements,
};
use shengji_mechanics::types::{Card, Number, PlayerID, Suit, Trump};

type R<T> = Result<T, String>;

fn suit_of(c: char) -> R<Suit> {
    Ok(match c {
        'S' => Suit::Spades,
        'H' => Suit::Hearts,
        'C' => Suit::Clubs,
        'D' => Suit::Diamonds,
        _ => return Err(format!("bad suit {c:?}")),
    })
}

fn card_of(s: &str) -> R<Card> {
    match s {
        "BJ" => return Ok(Card::BigJoker),
        "LJ" => return Ok(Card::SmallJoker),
        _ => {}
    }
    let mut ch = s.chars();
    let suit = suit_of(ch.next().ok_or("empty card")?)?;
    let rank: String = ch.collect();
    let rank = if rank == "T" { "10".to_string() } else { rank };
    let number = Number::from_str(&rank).ok_or(format!("bad card {s:?}"))?;
    Ok(Card::Suited { suit, number })
}

fn card_str(c: Card) -> String {
    match c {
        Card::BigJoker => "BJ".into(),
        Card::SmallJoker => "LJ".into(),
        Card::Suited { suit, number } => {
            let s = match suit {
                Suit::Spades => "S",
                Suit::Hearts => "H",
                Suit::Clubs => "C",
                Suit::Diamonds => "D",
            };
            format!("{s}{}", number.as_str())
        }
        Card::Unknown => "??".into(),
    }
}

fn cards(v: &Value, key: &str) -> R<Vec<Card>> {
    v.get(key)
        .and_then(Value::as_array)
        .ok_or(format!("{key}: expected a list of cards"))?
        .iter()
        .map(|c| card_of(c.as_str().ok_or(format!("{key}: a card is not a string"))?))
        .collect()
}

fn groups(v: &Value, key: &str) -> R<Vec<Vec<Card>>> {
    let arr = v
        .get(key)
        .and_then(Value::as_array)
        .ok_or(format!("{key}: expected a list of card lists"))?;
    arr.iter()
        .map(|g| {
            let g = json!({ "g": g });
            cards(&g, "g")
        })
        .collect()
}

fn strs(cs: &[Card]) -> Value {
    Value::from(cs.iter().map(|c| card_str(*c)).collect::<Vec<_>>())
}

struct Settings {
    trump: Trump,
    draw: TrickDrawPolicy,
    throw_eval: ThrowEvaluationPolicy,
    bombs: BombPolicy,
    compound: CompoundFormats,
    tractor: TractorRequirements,
}

fn enum_field<T: serde::de::DeserializeOwned + Default>(v: &Value, key: &str) -> R<T> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(T::default()),
        Some(x) => serde_json::from_value(x.clone()).map_err(|e| format!("{key}: {e}")),
    }
}

fn settings(v: &Value) -> R<Settings> {
    let level = v.get("level").and_then(Value::as_str).ok_or("level: expected a rank")?;
    let number = Number::from_str(level).ok_or(format!("level: bad rank {level:?}"))?;
    let trump = match v.get("trump") {
        None | Some(Value::Null) => Trump::NoTrump {
            number: Some(number),
        },
        Some(Value::String(s)) if s.len() == 1 => Trump::Standard {
            suit: suit_of(s.chars().next().unwrap())?,
            number,
        },
        Some(x) => return Err(format!("trump: bad value {x}")),
    };
    let rainbows = match v.get("rainbows") {
        None | Some(Value::Null) => None,
        Some(x) => Some(x.as_u64().ok_or("rainbows: expected an integer")? as usize),
    };
    let tractor = match v.get("tractor") {
        None | Some(Value::Null) => TractorRequirements::default(),
        Some(x) => {
            let a = x.as_array().ok_or("tractor: expected [min_count, min_length]")?;
            let n = |i: usize| a.get(i).and_then(Value::as_u64).ok_or("tractor: bad value");
            TractorRequirements {
                min_count: n(0)? as usize,
                min_length: n(1)? as usize,
            }
        }
    };
    Ok(Settings {
        trump,
        draw: enum_field(v, "draw")?,
        throw_eval: enum_field(v, "throw_eval")?,
        bombs: enum_field(v, "bombs")?,
        compound: CompoundFormats { rainbows },
        tractor,
    })
}

fn format_of(s: &Settings, lead: &[Card]) -> R<TrickFormat> {
    let mut lead = lead.to_vec();
    lead.sort_by(|a, b| s.trump.compare(*a, *b));
    TrickFormat::from_cards(s.trump, s.tractor, &lead, None, s.compound.clone())
        .map_err(|e| format!("lead: {e}"))
}

fn hands_of(s: &Settings, holdings: &[Vec<Card>]) -> R<Hands> {
    let mut hands = Hands::new((0..holdings.len()).map(PlayerID));
    hands.set_trump(s.trump);
    for (i, h) in holdings.iter().enumerate() {
        hands
            .add(PlayerID(i), h.iter().copied())
            .map_err(|e| format!("hand {i}: {e}"))?;
    }
    Ok(hands)
}

/// Plays `cards` for seat `id` as play_phase.rs does; returns the failed-throw messages.
fn play(s: &Settings, trick: &mut Trick, hands: &mut Hands, id: usize, cards: &[Card])
    -> R<Vec<PlayCardsMessage>> {
    trick
        .play_cards(PlayCards {
            id: PlayerID(id),
            hands,
            cards,
            trick_draw_policy: s.draw,
            throw_eval_policy: s.throw_eval,
            format_hint: None,
            hide_throw_halting_player: false,
            tractor_requirements: s.tractor,
            bomb_policy: s.bombs,
            compound_formats: s.compound.clone(),
        })
        .map_err(|e| format!("play of seat {id}: {e}"))
}

fn handle(v: &Value) -> R<Value> {
    let op = v.get("op").and_then(Value::as_str).ok_or("op: missing")?;
    let s = settings(v)?;
    match op {
        "decompose" => {
            let lead = cards(v, "cards")?;
            let tf = format_of(&s, &lead)?;
            Ok(json!({"units": units_of(&lead, &tf)?, "rainbow": tf.is_rainbow()}))
        }
        "follow" => {
            let tf = format_of(&s, &cards(v, "lead")?)?;
            let hand = Card::count(cards(v, "hand")?);
            let p = cards(v, "play")?;
            Ok(json!({"legal": tf.is_legal_play(&hand, &p, s.draw, s.bombs)}))
        }
        "throw" => {
            let lead = cards(v, "lead")?;
            let mut holdings = vec![lead.clone()];
            holdings.extend(groups(v, "others")?);
            let n = holdings.len();
            let mut hands = hands_of(&s, &holdings)?;
            let mut trick = Trick::new(s.trump, (0..n).map(PlayerID), s.bombs);
            let msgs = play(&s, &mut trick, &mut hands, 0, &lead)?;
            for m in &msgs {
                if let PlayCardsMessage::ThrowFailed { better_player, .. } = m {
                    let pc = &trick.played_cards()[0];
                    return Ok(json!({
                        "valid": false,
                        "forced": strs(&pc.cards),
                        "blocker": better_player.map(|p| p.0 as i64 - 1),
                    }));
                }
            }
            Ok(json!({"valid": true}))
        }
        "winner" => {
            let holdings = groups(v, "hands")?;
            let plays = groups(v, "plays")?;
            if holdings.len() != plays.len() {
                return Err("hands and plays differ in length".into());
            }
            let n = holdings.len();
            let mut hands = hands_of(&s, &holdings)?;
            let mut trick = Trick::new(s.trump, (0..n).map(PlayerID), s.bombs);
            for (i, p) in plays.iter().enumerate() {
                let msgs = play(&s, &mut trick, &mut hands, i, p)?;
                if msgs.iter().any(|m| matches!(m, PlayCardsMessage::ThrowFailed { .. })) {
                    return Err("the lead is a failed throw".into());
                }
            }
            let ended = trick.complete().map_err(|e| format!("complete: {e}"))?;
            Ok(json!({"winner": ended.winner.0}))
        }
        _ => Err(format!("op: unknown {op:?}")),
    }
}

/// The lead's units as the format holds them (TrickFormat keeps `units` private; its
/// serde form does not). Rainbow units hold one representative card: the lead's cards
/// are listed by rank instead.
fn units_of(lead: &[Card], tf: &TrickFormat) -> R<Value> {
    if tf.is_rainbow() {
        let mut by: HashMap<String, Vec<Card>> = HashMap::new();
        for c in lead {
            let k = c.number().map(|n| n.as_str().to_string()).unwrap_or_default();
            by.entry(k).or_default().push(*c);
        }
        let out: Vec<Value> = by.into_values().map(|g| strs(&g)).collect();
        return Ok(Value::from(out));
    }
    let val = serde_json::to_value(tf).map_err(|e| format!("format: {e}"))?;
    let units: Vec<TrickUnit> = serde_json::from_value(val["units"].clone())
        .map_err(|e| format!("format units: {e}"))?;
    Ok(Value::from(units.iter().map(|u| strs(&u.cards())).collect::<Vec<_>>()))
}

fn main() {
    std::panic::set_hook(Box::new(|_| {}));
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    for line in stdin.lock().lines() {
        let line = match line {
            Ok(l) => l,
            Err(_) => break,
        };
        if line.trim().is_empty() {
            continue;
        }
        let answer = match serde_json::from_str::<Value>(&line) {
            Err(e) => json!({"error": format!("bad JSON: {e}")}),
            Ok(v) => match std::panic::catch_unwind(|| handle(&v)) {
                Ok(Ok(a)) => a,
                Ok(Err(e)) => json!({ "error": e }),
                Err(p) => {
                    let msg = p
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default();
                    json!({ "error": format!("panic: {msg}") })
                }
            },
        };
        let _ = writeln!(out, "{answer}");
        let _ = out.flush();
    }
}
