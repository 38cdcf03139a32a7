import { Stack, Text, Title } from '@mantine/core';
import { IconBooks, IconFlame, IconPhoto, IconQuote, IconSparkles, IconUsers, IconWorld } from '@tabler/icons-react';
import { BrandMark } from '@/components/BrandMark';
import classes from '../auth.module.css';

const FEATURES = [
  { icon: IconBooks, title: 'Series Architecture', text: 'Plots and timelines that span every book.' },
  { icon: IconUsers, title: 'Character Evolution', text: 'Growth, relationships and arcs across the saga.' },
  { icon: IconWorld, title: 'World-Building', text: 'Cultures, maps and histories in one place.' },
  { icon: IconSparkles, title: 'AI Writing Assistant', text: 'Plot, character and dialogue suggestions.' },
  { icon: IconFlame, title: 'Productivity Tools', text: 'Goals, progress and writing streaks.' },
  { icon: IconPhoto, title: 'Multimedia', text: 'Images, maps and audio beside your words.' },
];

/** The feature-highlight panel and testimonial shown beside the forms on large screens. */
export function FeatureHighlights() {
  return (
    <section className={classes.hero} aria-labelledby="auth-hero-title">
      <div className={classes.heroInner}>
        <BrandMark light size={40} />
        <Stack gap="xs" mt={28}>
          <Title order={2} id="auth-hero-title" className={classes.heroTitle}>
            The Ultimate Series Author&rsquo;s Companion
          </Title>
          <Text className={classes.heroLead}>
            Plan every book, remember every character and keep your world consistent. Works offline, wherever you
            write.
          </Text>
        </Stack>
        <ul className={classes.featureGrid}>
          {FEATURES.map(({ icon: Icon, title, text }) => (
            <li key={title} className={classes.featureItem}>
              <span className={classes.featureIcon} aria-hidden>
                <Icon size={20} stroke={1.75} />
              </span>
              <span>
                <span className={classes.featureTitle}>{title}</span>
                <span className={classes.featureText}>{text}</span>
              </span>
            </li>
          ))}
        </ul>
        <figure className={classes.testimonial}>
          <IconQuote size={24} className={classes.quoteIcon} aria-hidden />
          <blockquote className={classes.quote}>
            Chronicler is the first tool that kept all seven books of my saga straight: every name, every date, every
            loose thread.
          </blockquote>
          <figcaption className={classes.quoteBy}>
            <span className={classes.quoteAvatar} aria-hidden>
              ME
            </span>
            <span>
              <strong>Mara Ellison</strong>
              <br />
              Author of <em>The Ashen Crown</em> series
            </span>
          </figcaption>
        </figure>
      </div>
    </section>
  );
}
