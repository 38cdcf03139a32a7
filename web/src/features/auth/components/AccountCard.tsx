import type { ReactNode } from 'react';
import { Paper, Text, Title } from '@mantine/core';
import { BrandMark } from '@/components/BrandMark';
import { FloatingEmoji } from './FloatingEmoji';
import { TermsNotice } from './TermsNotice';
import classes from '../auth.module.css';

interface AccountCardProps {
  title: string;
  subtitle: string;
  themeToggle?: ReactNode;
  footer: ReactNode;
  children: ReactNode;
}

/** The centred card of /login and /register. */
export function AccountCard({ title, subtitle, themeToggle, footer, children }: AccountCardProps) {
  return (
    <main className={classes.single}>
      <FloatingEmoji />
      <div className={classes.formTopBar}>
        <span />
        {themeToggle}
      </div>
      <div className={classes.formWrap}>
        <div className={classes.singleBrand}>
          <BrandMark size={40} />
        </div>
        <Paper className={classes.card} withBorder shadow="md" radius="lg" p={{ base: 'lg', sm: 36 }}>
          <Title order={1} className={classes.cardTitle}>
            {title}
          </Title>
          <Text c="dimmed" size="sm" mt={6} mb="lg">
            {subtitle}
          </Text>
          {children}
          <TermsNotice />
        </Paper>
        <div className={classes.cardFooter}>{footer}</div>
      </div>
    </main>
  );
}
