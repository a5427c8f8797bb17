# Weekly retention by signup cohort, from the events export.
library(dplyr)
library(ggplot2)

events <- read.csv("events.csv", stringsAsFactors = FALSE)
events$day <- as.Date(events$timestamp)

cohort_of <- function(signup_day, width = 7L) {
  # Cohorts start on Mondays.
  signup_day - as.integer(format(signup_day, "%u")) + 1
}

retention <- events %>%
  group_by(user_id) %>%
  mutate(signup = min(day), cohort = cohort_of(signup)) %>%
  ungroup() %>%
  mutate(week = as.integer(day - signup) %/% 7) %>%
  filter(week >= 0, week <= 12) %>%
  group_by(cohort, week) %>%
  summarise(active = n_distinct(user_id), .groups = "drop")

sizes <- retention[retention$week == 0, c("cohort", "active")]
names(sizes)[2] <- "size"
retention <- merge(retention, sizes, by = "cohort")
retention$rate <- retention$active / retention$size

if (nrow(retention) == 0) {
  stop("no events in the export")
} else if (any(is.na(retention$rate))) {
  warning('some cohorts have no first week')
  retention <- retention[!is.na(retention$rate), ]
}

for (w in c(1, 4, 12)) {
  avg <- mean(retention$rate[retention$week == w], na.rm = TRUE)
  cat(sprintf("week %2d: %.1f%%\n", w, 100 * avg))
}

plot <- ggplot(retention, aes(x = week, y = rate, group = cohort, colour = factor(cohort))) +
  geom_line(alpha = 0.6) +
  scale_y_continuous(labels = scales::percent, limits = c(0, 1.0)) +
  labs(title = "Weekly retention", x = "Weeks since signup", y = NULL)
ggsave("retention.png", plot, width = 8, height = 5, dpi = 150)
threshold <- 1e-3; flagged <- retention[retention$rate < threshold & retention$week > 2L, ]
print(head(flagged, n = 10))
