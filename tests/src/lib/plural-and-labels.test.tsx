import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { CampaignTree } from "@/features/projects/components/CampaignTree";
import { formatCountOf, pluralRu } from "@contract/format";
import {
  campaignTypeLabel,
  keywordLabel,
  planLabel,
} from "@contract/labels";
import { createTestQueryClient } from "../components/helpers";
import { server, useTestServer } from "./test-server";

const phrase: [string, string, string] = ["фраза", "фразы", "фраз"];

describe("the one Russian plural helper", () => {
  it.each([
    [0, "фраз"],
    [1, "фраза"],
    [2, "фразы"],
    [4, "фразы"],
    [5, "фраз"],
    [11, "фраз"],
    [12, "фраз"],
    [14, "фраз"],
    [21, "фраза"],
    [22, "фразы"],
    [82, "фразы"],
    [101, "фраза"],
    [111, "фраз"],
    [1_000_001, "фраза"],
    [-3, "фразы"],
    [1.5, "фразы"],
  ])("%d → %s", (count, form) => {
    expect(pluralRu(count, phrase)).toBe(form);
  });

  it("writes the count the Russian way with its noun: «4 фразы», «2 минус-фразы», «82 слова», «1 000 кликов»", () => {
    expect(formatCountOf(4, phrase)).toBe("4 фразы");
    expect(formatCountOf(2, ["минус-фраза", "минус-фразы", "минус-фраз"])).toBe(
      "2 минус-фразы",
    );
    expect(formatCountOf(82, ["слово", "слова", "слов"])).toBe("82 слова");
    expect(
      formatCountOf(1000, ["клик", "клика", "кликов"]).replace(/\s/g, " "),
    ).toBe("1 000 кликов");
  });
});

describe("Russian labels for machine values", () => {
  it("names plans in Russian and keeps a plan name it does not know", () => {
    expect(planLabel("free")).toBe("Бесплатный");
    expect(planLabel("pro")).toBe("Профессиональный");
    expect(planLabel("Партнёрский")).toBe("Партнёрский");
  });

  it("calls the autotargeting row «Автотаргетинг» and leaves real phrases alone", () => {
    expect(keywordLabel({ phrase: "---autotargeting" })).toBe("Автотаргетинг");
    expect(keywordLabel({ phrase: "что угодно", isAutotargeting: true })).toBe(
      "Автотаргетинг",
    );
    expect(keywordLabel({ phrase: "купить диван" })).toBe("купить диван");
  });

  it("names campaign types of the Direct API in Russian; a type from an export is already Russian", () => {
    expect(campaignTypeLabel("text")).toBe("Текстово-графическая");
    expect(campaignTypeLabel("Смарт-баннеры")).toBe("Смарт-баннеры");
  });

  it("names a Direct text campaign by where it shows, never by an ad format", () => {
    expect(campaignTypeLabel("текстово-графическое объявление", "networks")).toBe("РСЯ");
    expect(campaignTypeLabel("Текстово-графические объявления", "search")).toBe("Поиск");
    expect(campaignTypeLabel("text", "both")).toBe("Поиск и РСЯ");
    // Placement unknown: the campaign type, not the export's «…объявление».
    expect(campaignTypeLabel("текстово-графическое объявление")).toBe("Текстово-графическая");
  });
});

describe("the campaign tree", () => {
  useTestServer();

  it("badges a РСЯ campaign «РСЯ», not with the export's «текстово-графическое объявление»", () => {
    const campaign = {
      id: "c2",
      name: "Цветы — РСЯ",
      type: "текстово-графическое объявление",
      placement: "networks",
      groups_count: 1,
      ads_count: 1,
      keywords_count: 1,
      negative_keywords: 0,
      groups: [{ name: "Розы", ads: 1, keywords: 1, negative_keywords: 0 }],
      stats: null,
    };
    render(
      <QueryClientProvider client={createTestQueryClient()}>
        <CampaignTree projectId="p1" campaigns={[campaign as never]} />
      </QueryClientProvider>,
    );
    expect(screen.getByText("РСЯ")).toHaveClass("badge");
    expect(screen.queryByText(/текстово-графическ/i)).not.toBeInTheDocument();
  });

  it("counts with the right forms and shows the autotargeting row as «Автотаргетинг»", async () => {
    const group = { name: "Диваны", ads: 2, keywords: 4, negative_keywords: 2 };
    const campaign = {
      id: "c1",
      name: "Диваны — поиск",
      type: "text",
      groups_count: 1,
      ads_count: 2,
      keywords_count: 4,
      negative_keywords: 0,
      groups: [group],
      stats: null,
    };
    server.use(
      http.get("/api/v1/projects/p1/campaigns/c1", () =>
        HttpResponse.json({
          id: "c1",
          campaign: {
            name: "Диваны — поиск",
            negativeKeywords: [],
            groups: [
              {
                name: "Диваны",
                keywords: [
                  {
                    phrase: "купить диван",
                    negativeWords: [],
                    matchType: "broad",
                  },
                  {
                    phrase: "---autotargeting",
                    negativeWords: [],
                    matchType: "broad",
                    isAutotargeting: true,
                  },
                ],
                ads: [],
                negativeKeywords: [],
              },
            ],
          },
        }),
      ),
    );
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={createTestQueryClient()}>
        <CampaignTree projectId="p1" campaigns={[campaign as never]} />
      </QueryClientProvider>,
    );
    expect(
      screen.getByText("1 группа · 2 объявления · 4 фразы"),
    ).toBeInTheDocument();
    expect(screen.getByText("Текстово-графическая")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: /Диваны — поиск/ }));
    expect(
      screen.getByText(/2 объявления · 4 фразы · 2 минус-фразы/),
    ).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: /^▸?\s*Диваны\b/ }));
    expect(await screen.findByText("Автотаргетинг")).toBeInTheDocument();
    expect(screen.queryByText("---autotargeting")).not.toBeInTheDocument();
  });
});
