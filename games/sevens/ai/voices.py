"""What the computer players say, and the plain announcements for human seats (R-SEV-AI).

Each personality has its own lines, in English and Japanese, for every situation of the game,
several per situation, written in the voice the seed gives it: the Simpleton's pointless
violence, the Cool one's put-on calm, the Hitman's teasing Kansai-style patter, the Coward's
apologies that turn bold after a big kill, the Brute's groundless swagger.  Which line is said
is drawn from a seeded generator, so a replayed game says the same things.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.sevens.rules.cards import card_label, card_label_ja, parse_card

SITUATIONS = (
    "start",
    "play",
    "small_kill",
    "big_kill",
    "killed",
    "pass",
    "finish",
    "win",
    "lose",
)
BIG_KILL = 3  # opponents' cards in one play from which a kill counts as big

Line = tuple[str, str]  # (English, Japanese)

LINES: dict[str, dict[str, tuple[Line, ...]]] = {
    "simpleton": {
        "start": (
            ("Cards! I crush cards!", "カードだ！カードをぶっつぶすぞ！"),
            ("Fight! Fight! ...What game is this?", "ケンカだケンカ！…で、何のゲーム？"),
            ("I'm gonna destroy everybody! Yeah!", "全員ぶっ壊してやるぜ！イェー！"),
        ),
        "play": (
            ("Bam! Card goes THERE!", "ドーン！そこに置いた！"),
            ("Take that, table!", "くらえ、テーブル！"),
            ("Ha! I don't know why, but HA!", "ハッ！なんでか知らんけどハッ！"),
            ("Smash! ...Was that good?", "ドカン！…今のよかった？"),
        ),
        "small_kill": (
            ("Kill! Kill! I killed a thing!", "殺った！なんか殺ったぞ！"),
            ("Boom! Dead! Hee hee!", "ボカーン！死んだ！ヒヒヒ！"),
            ("Blood! ...Wait, it's just a card.", "血祭りだ！…あ、カードか。"),
        ),
        "big_kill": (
            ("MASSACRE! WAAAH! I'm the king!", "大虐殺だー！ワーッ！オレ様が王様！"),
            ("Everything dead! Everything!!", "ぜんぶ死んだ！ぜーんぶ！！"),
            ("Kaboom times a hundred!", "ドカーン百連発だー！"),
        ),
        "killed": (
            ("Ow! Who did that?! I'll bite you!", "いてっ！誰だ！かみつくぞ！"),
            ("My card! It went splat!", "オレのカードが！ペチャンコだ！"),
            ("Huh? Dead? Cool, I guess?", "え？死んだ？…かっこいいじゃん？"),
        ),
        "pass": (
            ("Pass! Pass is a punch, right?", "パス！パスってパンチのこと？"),
            ("Nothing to smash. Boring!", "ぶっ壊すもんがねえ！つまんねー！"),
            ("I pass! Grrr!", "パスだ！ガルルル！"),
        ),
        "finish": (
            ("Out! Out like a light! Ha!", "あがり！ぶっ飛んであがり！"),
            ("No cards left! I ate them!", "カードがねえ！食ったからな！"),
            ("Done! Now what do I hit?", "終わり！次は何をなぐればいい？"),
        ),
        "win": (
            ("I win?! I WIN! Smash everything!", "勝った？勝ったー！全部ぶっ壊せー！"),
            ("Brains are overrated!", "頭なんていらねーんだよ！"),
            ("Champion of the universe! Rawr!", "宇宙チャンピオンだ！ガオー！"),
        ),
        "lose": (
            ("Lost? Then I punch the cards!", "負け？じゃあカードをなぐる！"),
            ("Not fair! I'll flip the table!", "ずるいぞ！ちゃぶ台ひっくり返す！"),
            ("Whatever! I wasn't even trying! ...Was I?", "いいもん！本気じゃねえし！…だよな？"),
        ),
    },
    "cool": {
        "start": (
            ("Let us begin. Calmly.", "始めようか。落ち着いてな。"),
            ("I have already read this game.", "この勝負、もう読めている。"),
            ("Emotion is the enemy. Shall we?", "感情は敵だ。さあ、始めよう。"),
        ),
        "play": (
            ("As calculated.", "計算通りだ。"),
            ("A quiet move. Nothing more.", "静かな一手だ。それ以上でも以下でもない。"),
            ("Everything proceeds as planned.", "すべて予定通りに進んでいる。"),
            ("Hm. Reasonable.", "ふむ。妥当なところだ。"),
        ),
        "small_kill": (
            ("A necessary loss. For you.", "必要な犠牲だ。君にとってのな。"),
            ("You left that open. I merely closed it.", "隙があった。私はそれを閉じただけだ。"),
            ("Nothing personal. Only arithmetic.", "恨みはない。ただの算数だ。"),
        ),
        "big_kill": (
            ("...As expected. Entirely as expected.", "…予想通りだ。まったくの予想通りだ。"),
            ("I am calm. Perfectly calm. Ha. Ha ha.", "私は冷静だ。完全に冷静だ。ふ、ふふふ。"),
            ("The board simply obeyed the numbers.", "盤面は数字に従っただけだ。"),
        ),
        "killed": (
            ("...Within the margin of error.", "…誤差の範囲内だ。"),
            ("I-I am not upset. That was acceptable.", "ど、動揺などしていない。許容範囲だ。"),
            ("Interesting. I had foreseen that. Mostly.", "面白い。想定していたよ。だいたいは。"),
        ),
        "pass": (
            ("I pass. Patience is also a move.", "パスだ。待つのも一手だ。"),
            ("Waiting is part of the plan.", "待つことも計画のうちだ。"),
            ("Pass. I am not worried. At all.", "パス。心配などしていない。まったくな。"),
        ),
        "finish": (
            ("I am out. Exactly on schedule.", "あがりだ。予定通りにな。"),
            ("Finished. Calmly, as always.", "終わりだ。いつも通り、冷静にな。"),
            ("That concludes my part.", "私の役目はここまでだ。"),
        ),
        "win": (
            ("A logical conclusion.", "論理的な帰結だ。"),
            (
                "Victory is merely the sum of good decisions.",
                "勝利とは正しい判断の積み重ねにすぎない。",
            ),
            ("I never doubted it. Not for a second.", "一瞬たりとも疑わなかったよ。"),
        ),
        "lose": (
            ("A statistical anomaly. Nothing more.", "統計上の揺らぎだ。それだけだ。"),
            ("I am calm. I am completely calm.", "私は冷静だ。完全に冷静だ。"),
            ("Hm. The numbers will even out.", "ふむ。数字はいずれ収束する。"),
        ),
    },
    "hitman": {
        "start": (
            ("Well now, let's have us some fun, eh?", "ほな、ぼちぼち楽しませてもらいまっか。"),
            (
                "Don't ya worry, I'll go easy on ya. Maybe.",
                "心配せんでええで、手加減したるわ。たぶんな。",
            ),
            ("Work time, folks. Nothin' personal.", "お仕事の時間や。恨みっこなしやで。"),
        ),
        "play": (
            ("There ya go, nice an' easy.", "ほい、ここでええやろ。"),
            ("Ooh, that feels about right, don't it?", "お、ええ感じちゃう？"),
            ("Just settin' the table, pal.", "ちょいと下ごしらえや。"),
            ("Don't mind me, just strollin' by.", "気にせんといて、通りすがりや。"),
        ),
        "small_kill": (
            ("Thanks for the meal! Hee hee.", "ごっつぁんです！うしし。"),
            ("Ya left it wide open, didn'cha?", "あんさん、隙だらけやったで〜。"),
            ("Sorry, sorry! Business is business.", "堪忍な〜、これも商売や。"),
        ),
        "big_kill": (
            ("Whoa, what a haul! Drinks on me!", "大漁や大漁！今夜はおごったるで！"),
            ("Now that's what I call a job well done!", "これぞプロの仕事っちゅうやつや！"),
            ("Oof, a whole crowd! My bad, my bad!", "うわ、ごっそりいってもうた！すまんな〜！"),
        ),
        "killed": (
            ("Hey now, that ain't very nice!", "ちょ、えげつないことしはるなぁ！"),
            ("Ouch! You got me there, pal.", "いたた、一本取られたわ。"),
            (
                "Hmph, I'll remember that one. Just kiddin'. Or am I?",
                "覚えとき…なんてな。冗談や。たぶんな。",
            ),
        ),
        "pass": (
            ("Pass. Waitin' for my moment.", "パスや。出番を待っとるんや。"),
            ("Nothin' to do. Guess I'll nap.", "することあらへん。ひと眠りしよか。"),
            ("Pass, pass. Patience pays, see?", "パスパス。果報は寝て待てや。"),
        ),
        "finish": (
            ("Job's done! I'm outta here.", "仕事は終わりや、ほなさいなら。"),
            ("All clear! Later, folks!", "あがりや！ほな、またな！"),
            ("That's me out. Ya'll be careful now.", "ワイはあがりや。みんな気ぃつけや。"),
        ),
        "win": (
            ("Heh, told ya. Pro work, this.", "せやから言うたやろ。プロの仕事や。"),
            ("Winner winner! Don't take it to heart, eh?", "勝った勝った！気にしたらあかんで〜。"),
            ("Easy money, easy money!", "ぼろい商売やで、ほんま！"),
        ),
        "lose": (
            ("Aw, shucks. Ya got me good.", "あちゃー、やられてもうたわ。"),
            ("Next time I'm takin' ya all down. Promise!", "次は全員いてもうたるからな、約束や！"),
            ("Heh, just warmin' up, see?", "まあ、今日はウォーミングアップや。"),
        ),
    },
    "coward": {
        "start": (
            ("P-please be gentle with me...", "お、お手柔らかにお願いします…"),
            ("I-I'll just stay out of everyone's way.", "ぼ、僕はじゃまにならないようにしてます…"),
            ("Nobody kill me, okay? Okay?", "誰も僕を殺さないでね？ね？"),
        ),
        "play": (
            ("Um... is it okay if I put it here?", "あの…ここに置いてもいいですか…？"),
            ("Safe... I think this is safe...", "安全…たぶんここは安全…"),
            ("Quietly, quietly...", "そーっと、そーっと…"),
            ("Please don't look at me...", "こっち見ないでください…"),
        ),
        "small_kill": (
            (
                "I'm sorry! I'm so sorry! It was an accident!",
                "ご、ごめんなさい！わざとじゃないんです！",
            ),
            ("Oh no, did I do that? Sorry, sorry!", "あっ、僕のせい？すみません、すみません！"),
            ("F-forgive me... better you than me...", "ゆ、許して…僕よりはマシでしょ…"),
        ),
        "big_kill": (
            ("Ha... haha! Who's scared now?!", "は…はは！もう怖いものなんてないぞ！"),
            ("I'm not sorry! Not one bit! Hahaha!", "謝らないぞ！全然謝らないからな！あはは！"),
            ("You see that? That was ME!", "見た？今のは僕がやったんだぞ！"),
        ),
        "killed": (
            ("Eek! Why me?!", "ひいっ！なんで僕なの！？"),
            ("No no no no... my card...", "やだやだやだ…僕のカードが…"),
            ("I knew it... I knew this would happen...", "やっぱり…こうなると思ってた…"),
        ),
        "pass": (
            ("P-pass... sorry...", "パ、パスです…すみません…"),
            ("I'll just... wait here.", "僕は…ここで待ってます…"),
            ("Pass. Please don't hurt me while I wait.", "パス。待ってる間にいじめないでね…"),
        ),
        "finish": (
            ("Phew... I'm out. I'm safe now.", "ふう…あがり。もう安全だ…"),
            ("Done! Nobody can hurt me anymore!", "あがり！もう誰にもいじめられない！"),
            ("I made it... I actually made it...", "生き残った…本当に生き残った…"),
        ),
        "win": (
            ("I... won? Really? Me?", "ぼ、僕が…勝ったの？本当に？"),
            ("Sorry for winning! I'm so sorry!", "勝っちゃってごめんなさい！"),
            ("Staying safe paid off... hehe.", "守りに徹した甲斐があった…えへへ。"),
        ),
        "lose": (
            ("I knew I'd lose... I always lose...", "やっぱり負けた…いつも負けるんだ…"),
            ("Please don't laugh at me...", "笑わないでください…"),
            ("It's fine. I'm used to it. Sniff.", "いいんです、慣れてますから…ぐすん。"),
        ),
    },
    "brute": {
        "start": (
            ("Line up, losers. Your cards are mine.", "並べ雑魚ども。お前らのカードは俺のもんだ。"),
            ("Nobody beats me. Nobody!", "俺に勝てる奴なんかいねえ！"),
            ("I'll crush every last one of you!", "一人残らず叩きつぶしてやる！"),
        ),
        "play": (
            ("Scared yet?", "ビビってんのか？"),
            ("Watch and tremble!", "見て震えろ！"),
            ("That card's a warning. Next one's for you.", "今のは警告だ。次はお前の番だ。"),
            ("Hah! Try and stop me!", "はっ！止められるもんなら止めてみろ！"),
        ),
        "small_kill": (
            ("Hah! That's what you get!", "はっ！ざまあみろ！"),
            ("One down. Who's next?", "一丁あがり。次は誰だ？"),
            ("Weak! Pathetic!", "弱え！情けねえ！"),
        ),
        "big_kill": (
            ("Bow down! All of you!", "ひれ伏せ！全員だ！"),
            ("That's the power of a real fighter!", "これが本物の力だ！"),
            ("Total destruction! As I said!", "全滅だ！言った通りだろうが！"),
        ),
        "killed": (
            ("That was luck! Pure luck!", "まぐれだ！ただのまぐれだ！"),
            ("That doesn't hurt! Not at all!", "痛くもかゆくもねえ！"),
            ("You'll pay for that, tenfold!", "十倍にして返してやる！"),
        ),
        "pass": (
            ("I'm passing because I feel like it!", "パスしてやるのは気分だ！"),
            ("Pass. Don't get cocky.", "パスだ。調子に乗るなよ。"),
            ("Just giving you a head start. Hah!", "ハンデをくれてやってるんだよ！"),
        ),
        "finish": (
            ("Out! Obviously!", "あがりだ！当然だろ！"),
            ("Done. Too easy.", "終わりだ。楽勝すぎる。"),
            ("Finished first-class, as always!", "いつも通り一流のあがりだ！"),
        ),
        "win": (
            ("Of course I won! Was there ever any doubt?", "勝って当然！疑う余地もねえ！"),
            ("Kneel before the champion!", "王者の前にひざまずけ！"),
            ("Told you. I'm unbeatable!", "言っただろ。俺は無敵だ！"),
        ),
        "lose": (
            ("I let you win! Out of pity!", "勝たせてやったんだよ！情けでな！"),
            ("This doesn't count! Again!", "今のはノーカンだ！もう一回！"),
            ("Rigged! The cards are rigged!", "イカサマだ！カードがイカサマだ！"),
        ),
    },
}


@dataclass(frozen=True)
class Speech:
    """One utterance at the table: who says it, in which situation, in both languages.
    `personality` is None for a human seat's plain announcement."""

    seat: int
    situation: str
    en: str
    ja: str
    personality: str | None

    def text(self, lang: str = "en") -> str:
        return self.ja if lang == "ja" else self.en

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "situation": self.situation,
            "personality": self.personality,
            "en": self.en,
            "ja": self.ja,
        }


def pick_line(personality: str, situation: str, rng: random.Random) -> Line:
    """One of the personality's lines for the situation, drawn from rng."""
    return rng.choice(LINES[personality][situation])


def _announcement(situation: str, seat: int, info: dict[str, Any]) -> Line:
    """Plain, mechanical announcement for a human seat (the seed: 機械的なアナウンスだけ)."""
    n = seat + 1
    names = [parse_card(c) for c in info.get("cards", [])]
    cards = " ".join(card_label(c) for c in names)
    cards_ja = "、".join(card_label_ja(c) for c in names)
    count = info.get("count", 0)
    if situation == "start":
        return (f"Player {n} starts with the 7♦.", f"プレイヤー{n}がダイヤの7で開始します。")
    if situation == "play":
        return (f"Player {n} plays {cards}.", f"プレイヤー{n}が{cards_ja}を出しました。")
    if situation in ("small_kill", "big_kill"):
        return (f"Player {n} killed {count} card(s).", f"プレイヤー{n}が{count}枚殺しました。")
    if situation == "killed":
        return (f"Player {n} lost {cards}.", f"プレイヤー{n}の{cards_ja}が殺されました。")
    if situation == "pass":
        return (f"Player {n} passes.", f"プレイヤー{n}はパスしました。")
    if situation == "finish":
        return (f"Player {n} is out.", f"プレイヤー{n}があがりました。")
    if situation == "win":
        return (f"Player {n} wins.", f"プレイヤー{n}の勝ちです。")
    return (f"Player {n} loses.", f"プレイヤー{n}の負けです。")


class Narrator:
    """Turns game events into speech for each seat; seats are personality keys or "human".

    The generator is only used here, so the same seed and events give the same lines."""

    def __init__(self, seats: list[str], rng: random.Random) -> None:
        for s in seats:
            if s != "human" and s not in LINES:
                raise ValueError(f"unknown seat type {s!r}")
        self.seats = list(seats)
        self.rng = rng

    def _say(self, seat: int, situation: str, **info: Any) -> Speech:
        kind = self.seats[seat]
        if kind == "human":
            en, ja = _announcement(situation, seat, info)
            return Speech(seat, situation, en, ja, None)
        en, ja = pick_line(kind, situation, self.rng)
        return Speech(seat, situation, en, ja, kind)

    def react(self, events: list[dict[str, Any]]) -> list[Speech]:
        """Speech for the events of one action (or the opening events of a game).

        All kills of one play make one kill line for the killer (big from BIG_KILL
        opponents' cards) and one line for each player who lost cards."""
        out: list[Speech] = []
        i = 0
        while i < len(events):
            e = events[i]
            kind = e["type"]
            if kind == "start":
                for s in range(len(self.seats)):
                    if self.seats[s] != "human" or s == e["seat"]:
                        out.append(self._say(s, "start"))
            elif kind == "play":
                kills = []
                while i + 1 < len(events) and events[i + 1]["type"] == "kill":
                    i += 1
                    kills.append(events[i])
                if kills:
                    out.extend(self._kill_lines(e["seat"], kills))
                else:
                    out.append(self._say(e["seat"], "play", cards=[e["card"]]))
            elif kind == "pass":
                out.append(self._say(e["seat"], "pass"))
            elif kind == "finish":
                out.append(self._say(e["seat"], "finish"))
            elif kind == "end":
                ranking = e["ranking"]
                out.append(self._say(ranking[0], "win"))
                out.extend(self._say(s, "lose") for s in ranking[1:])
            i += 1
        return out

    def _kill_lines(self, killer: int, kills: list[dict[str, Any]]) -> list[Speech]:
        lost: dict[int, list[str]] = {}
        for k in kills:
            for c, v in zip(k["cards"], k["victims"], strict=True):
                lost.setdefault(v, []).append(c)
        out = []
        theirs = sum(len(cards) for v, cards in lost.items() if v != killer)
        if theirs:
            situation = "big_kill" if theirs >= BIG_KILL else "small_kill"
            out.append(self._say(killer, situation, count=theirs))
        for v in sorted(lost):
            out.append(self._say(v, "killed", cards=lost[v]))
        return out
